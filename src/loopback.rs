//! loopback web (placeholder, replaced by the loopback module)
