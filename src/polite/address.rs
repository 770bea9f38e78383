//! Which addresses HudukuBot may connect to: none that is private, loopback, link-local,
//! multicast, unspecified, shared (CGNAT), unique-local, reserved or set aside for
//! documentation, nor such an address dressed as another (IPv4-mapped, NAT64, 6to4), unless
//! the operator's `network.csv` allows its range on purpose (the demo and the tests allow
//! 127.0.0.0/8: their publishers live on the loopback web).
//!
//! The rule is applied to what a name resolves to, inside the HTTP client's resolver
//! ([`GuardedResolver`]), so neither an IP address in a link nor a DNS answer can carry a
//! request to a publisher's intranet or a cloud metadata service. A name whose every address
//! is refused ends in [`AddressRefused`], which the politeness module logs as `blocked`.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

/// An address range, `10.0.0.0/8` or `fd00::/8` (a bare address is a range of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    pub addr: IpAddr,
    pub prefix: u8,
}

impl Cidr {
    /// Reads `ADDR/BITS` or a bare address; the address must be the range's first (no host
    /// bits set), so that what is written is what is meant.
    pub fn parse(s: &str) -> Result<Cidr, String> {
        let s = s.trim();
        let (a, p) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = a
            .parse()
            .map_err(|_| format!("{a:?} is not an IPv4 or IPv6 address"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match p {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| format!("/{p} is not a prefix length of 0 to {max}"))?,
        };
        let c = Cidr { addr, prefix };
        if c.network() != addr {
            return Err(format!(
                "{s} has host bits set: the range starts at {}/{prefix}",
                c.network()
            ));
        }
        Ok(c)
    }

    fn network(&self) -> IpAddr {
        match self.addr {
            IpAddr::V4(a) => IpAddr::V4(Ipv4Addr::from(u32::from(a) & mask32(self.prefix))),
            IpAddr::V6(a) => IpAddr::V6(Ipv6Addr::from(u128::from(a) & mask128(self.prefix))),
        }
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                u32::from(a) & mask32(self.prefix) == u32::from(n) & mask32(self.prefix)
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                u128::from(a) & mask128(self.prefix) == u128::from(n) & mask128(self.prefix)
            }
            _ => false,
        }
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

fn mask32(prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - u32::from(prefix))
    }
}

fn mask128(prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - u32::from(prefix))
    }
}

/// One allowed range of `network.csv`, with the operator's note and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Allowed {
    pub range: Cidr,
    pub note: String,
    pub line: u64,
}

/// The operator's allowances (`network.csv`); none by default.
#[derive(Debug, Clone, Default)]
pub struct Network {
    /// The file they came from, for messages.
    pub path: String,
    pub allowed: Vec<Allowed>,
}

/// Why an address may not be connected to, if it may not: the kind of address it is.
pub fn forbidden(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(a) => forbidden_v4(a),
        IpAddr::V6(a) => forbidden_v6(a),
    }
}

fn in4(a: Ipv4Addr, net: [u8; 4], prefix: u8) -> bool {
    u32::from(a) & mask32(prefix) == u32::from(Ipv4Addr::from(net))
}

fn forbidden_v4(a: Ipv4Addr) -> Option<&'static str> {
    const RANGES: &[([u8; 4], u8, &str)] = &[
        ([0, 0, 0, 0], 8, "an unspecified (\"this network\") address"),
        ([10, 0, 0, 0], 8, "a private address"),
        ([100, 64, 0, 0], 10, "a shared (CGNAT) address"),
        ([127, 0, 0, 0], 8, "a loopback address"),
        ([169, 254, 0, 0], 16, "a link-local address"),
        ([172, 16, 0, 0], 12, "a private address"),
        ([192, 0, 0, 0], 24, "an IETF protocol address"),
        ([192, 0, 2, 0], 24, "a documentation address"),
        ([192, 88, 99, 0], 24, "a 6to4 relay address"),
        ([192, 168, 0, 0], 16, "a private address"),
        ([198, 18, 0, 0], 15, "a benchmarking address"),
        ([198, 51, 100, 0], 24, "a documentation address"),
        ([203, 0, 113, 0], 24, "a documentation address"),
        ([224, 0, 0, 0], 4, "a multicast address"),
        ([240, 0, 0, 0], 4, "a reserved address"),
    ];
    RANGES
        .iter()
        .find(|(net, prefix, _)| in4(a, *net, *prefix))
        .map(|(_, _, what)| *what)
}

fn forbidden_v6(a: Ipv6Addr) -> Option<&'static str> {
    let bits = u128::from(a);
    let seg = a.segments();
    if let Some(v4) = a.to_ipv4_mapped() {
        return forbidden_v4(v4).map(|_| "an IPv4-mapped form of a refused address");
    }
    if a.is_unspecified() {
        return Some("an unspecified address");
    }
    if a.is_loopback() {
        return Some("a loopback address");
    }
    let within = |net: u128, prefix: u8| bits & mask128(prefix) == net;
    if within(0, 96) {
        return Some("an IPv4-compatible address (deprecated)");
    }
    // 64:ff9b::/96, NAT64: the IPv4 address is in the last 32 bits.
    if within(0x0064_ff9b << 96, 96) {
        let v4 = Ipv4Addr::from(bits as u32);
        return forbidden_v4(v4).map(|_| "a NAT64 form of a refused address");
    }
    // 6to4, 2002::/16: the IPv4 address is in bits 16..48.
    if seg[0] == 0x2002 {
        let v4 = Ipv4Addr::from((bits >> 80) as u32);
        return forbidden_v4(v4).map(|_| "a 6to4 form of a refused address");
    }
    const RANGES: &[(u128, u8, &str)] = &[
        (0x0064_ff9b_0001 << 80, 48, "a local-use NAT64 address"),
        (0x0100 << 112, 64, "a discard-only address"),
        (0x2001 << 112, 32, "a Teredo tunnel address"),
        (0x2001_0002 << 96, 48, "a benchmarking address"),
        (0x2001_0010 << 96, 28, "an ORCHID address"),
        (0x2001_0020 << 96, 28, "an ORCHIDv2 address"),
        (0x2001_0db8 << 96, 32, "a documentation address"),
        (0x3fff << 112, 20, "a documentation address"),
        (0xfc00 << 112, 7, "a unique-local address"),
        (0xfe80 << 112, 10, "a link-local address"),
        (0xfec0 << 112, 10, "a site-local address (deprecated)"),
        (0xff00 << 112, 8, "a multicast address"),
    ];
    RANGES
        .iter()
        .find(|(net, prefix, _)| within(*net, *prefix))
        .map(|(_, _, what)| *what)
}

impl Network {
    /// Whether an address may be connected to: `Ok` with the allowing line, if one was
    /// needed; `Err` with the reason if not. An IPv4-mapped address is judged as the IPv4
    /// address it stands for.
    pub fn check(&self, ip: IpAddr) -> Result<(), String> {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        let Some(what) = forbidden(ip) else {
            return Ok(());
        };
        if self.allowed.iter().any(|a| a.range.contains(ip)) {
            return Ok(());
        }
        Err(format!(
            "{ip} is {what}; HudukuBot asks only publishers' public addresses ({} allows no range holding it)",
            if self.path.is_empty() {
                "network.csv"
            } else {
                &self.path
            }
        ))
    }
}

/// The refusal of every address a host resolved to.
#[derive(Debug)]
pub struct AddressRefused(pub String);

impl fmt::Display for AddressRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AddressRefused {}

/// ureq's own resolver, its answers filtered by [`Network::check`]: only addresses that pass
/// are connected to, and if none passes the request ends before any connection is made.
#[derive(Debug)]
pub struct GuardedResolver {
    inner: DefaultResolver,
    network: Arc<Network>,
}

impl GuardedResolver {
    pub fn new(network: Arc<Network>) -> GuardedResolver {
        GuardedResolver {
            inner: DefaultResolver::default(),
            network,
        }
    }
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let found = self.inner.resolve(uri, config, timeout)?;
        let mut kept = self.empty();
        let mut refused = Vec::new();
        for addr in found.iter() {
            match self.network.check(addr.ip()) {
                Ok(()) => kept.push(*addr),
                Err(why) => refused.push(why),
            }
        }
        if kept.is_empty() {
            let host = uri.host().unwrap_or_default();
            return Err(ureq::Error::Other(Box::new(AddressRefused(format!(
                "address refused: {host} resolves to {}",
                refused.join("; ")
            )))));
        }
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn every_kind_of_non_public_address_is_refused() {
        let n = Network::default();
        for (addr, kind) in [
            ("0.0.0.0", "unspecified"),
            ("10.1.2.3", "private"),
            ("100.64.0.1", "CGNAT"),
            ("100.127.255.254", "CGNAT"),
            ("127.0.0.31", "loopback"),
            ("169.254.169.254", "link-local"),
            ("172.16.0.1", "private"),
            ("172.31.255.255", "private"),
            ("192.168.1.1", "private"),
            ("192.0.2.10", "documentation"),
            ("198.18.0.1", "benchmarking"),
            ("224.0.0.1", "multicast"),
            ("255.255.255.255", "reserved"),
            ("::", "unspecified"),
            ("::1", "loopback"),
            ("::ffff:127.0.0.1", "loopback"),
            ("::ffff:169.254.169.254", "link-local"),
            ("::ffff:10.0.0.1", "private"),
            ("64:ff9b::a9fe:a9fe", "NAT64"),
            ("2002:0a00:0001::1", "6to4"),
            ("fc00::1", "unique-local"),
            ("fd12:3456::1", "unique-local"),
            ("fe80::1", "link-local"),
            ("febf::1", "link-local"),
            ("ff02::1", "multicast"),
            ("2001:db8::1", "documentation"),
        ] {
            let e = n.check(ip(addr)).unwrap_err();
            assert!(e.contains(kind) || e.contains("refused"), "{addr}: {e}");
        }
        for public in [
            "8.8.8.8",
            "100.63.255.255",
            "100.128.0.0",
            "172.32.0.1",
            "169.253.1.1",
            "2606:4700::1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:0808:0808::1",
        ] {
            assert_eq!(n.check(ip(public)), Ok(()), "{public}");
        }
    }

    #[test]
    fn an_allowed_range_lets_its_addresses_through_and_no_others() {
        let n = Network {
            path: "network.csv".into(),
            allowed: vec![Allowed {
                range: Cidr::parse("127.0.0.0/8").unwrap(),
                note: "the loopback web".into(),
                line: 2,
            }],
        };
        assert_eq!(n.check(ip("127.0.0.31")), Ok(()));
        assert_eq!(n.check(ip("::ffff:127.0.0.31")), Ok(()), "mapped form too");
        assert!(
            n.check(ip("::1")).is_err(),
            "IPv6 loopback is another range"
        );
        assert!(n.check(ip("10.0.0.1")).is_err());
        assert!(n.check(ip("169.254.169.254")).is_err());
    }

    #[test]
    fn ranges_are_read_exactly() {
        assert_eq!(Cidr::parse("10.0.0.0/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(Cidr::parse("::1").unwrap().prefix, 128);
        assert_eq!(Cidr::parse("192.168.7.7").unwrap().prefix, 32);
        assert!(Cidr::parse("10.0.0.1/8").unwrap_err().contains("host bits"));
        assert!(Cidr::parse("10.0.0.0/33").is_err());
        assert!(Cidr::parse("localhost").is_err());
        assert!(Cidr::parse("0.0.0.0/0").unwrap().contains(ip("8.8.8.8")));
    }
}
