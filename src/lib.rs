//! Huduku
pub mod loopback;
