pub mod web;
pub mod pipeline;
