//! The use cases' pure parts tested from outside the crate; one test binary.

mod render;
