pub mod pipeline;
pub mod web;
