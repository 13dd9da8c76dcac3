//! # warpscope-validate
//!
//! How warpscope is measured, kept out of the product crates:
//!
//! * [`corpus`]: what each evaluation program (`corpus/*.cu`) says about itself (`// geometry:`,
//!   `// assume:`, `// expect:` comments) and the scoring of findings against it;
//! * [`root`], [`load`], [`run`]: the repository's PTX, loaded and checked, for the accuracy
//!   tests, the benchmarks and the programs below;
//! * the programs that make the tables of `docs/accuracy.md` and `docs/performance.md`
//!   (examples `corpus_check`, `corpus_timing`, and `h100_compare`, which reads Nsight Compute's
//!   counters through `warpscope-ncu`);
//! * the workspace rule that no crate's modules import each other in a cycle
//!   (`tests/module_cycles.rs`).

pub mod corpus;

use std::path::{Path, PathBuf};
use warpscope_analysis::{CheckOptions, CheckResult, Input, check};
use warpscope_ir::Module;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.cu` files of `dir` that have a committed `.ptx` beside them, sorted (the corpus'
/// programs when `dir` is `corpus/`).
pub fn cu_with_ptx(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu") && p.with_extension("ptx").is_file())
        .collect();
    files.sort();
    files
}

/// Parses and lowers a PTX file (panics on errors).
pub fn load(ptx: &Path) -> (Module, String) {
    let text = std::fs::read_to_string(ptx).unwrap_or_else(|e| panic!("{}: {e}", ptx.display()));
    let module = {
        let (ast, errs) = warpscope_ptx::parse(&text);
        assert!(errs.is_empty(), "{}: {:?}", ptx.display(), errs.first());
        let (m, errs) = warpscope_ir::lower_module(ast);
        assert!(errs.is_empty(), "{}: {:?}", ptx.display(), errs.first());
        m
    };
    (module, text)
}

/// Runs `check` on a PTX file whose `.file` names are repository-relative.
pub fn run(ptx: &Path, opts: &CheckOptions) -> CheckResult {
    let (module, text) = load(ptx);
    let files = module.files.clone();
    let source = move |i: u32| -> Option<String> {
        let name = files.iter().find(|(k, _)| *k == i)?.1.clone();
        std::fs::read_to_string(root().join(name)).ok()
    };
    let name = ptx
        .strip_prefix(root())
        .unwrap_or(ptx)
        .display()
        .to_string();
    let input = Input {
        module: &module,
        ptx_name: &name,
        ptx_text: &text,
        source: &source,
    };
    check(&input, opts)
}
