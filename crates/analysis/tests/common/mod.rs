//! Loading PTX files for the integration tests (shared with the evaluation tools in
//! `warpscope-validate`).

#![allow(unused_imports)]

pub use warpscope_validate::{load, root, run};
