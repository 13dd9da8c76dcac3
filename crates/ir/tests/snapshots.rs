//! Snapshots of the IR printer for representative kernels (copies of corpus PTX, so corpus
//! regeneration does not churn them): blocks, CFG edges, immediate
//! dominators, immediate post-dominators (reconvergence points) and loops.

use std::path::PathBuf;
use warpscope_ir::{Module, lower_module, print_function};

fn load(rel: &str) -> (Module, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let (ast, perr) = warpscope_ptx::parse(&text);
    assert!(perr.is_empty(), "{rel}: {perr:?}");
    let (m, lerr) = lower_module(ast);
    assert!(lerr.is_empty(), "{rel}: {lerr:?}");
    (m, text)
}

fn function_ir(rel: &str, name_part: &str) -> String {
    let (m, _) = load(rel);
    let f = m
        .funcs
        .values()
        .find(|f| f.name.contains(name_part))
        .unwrap_or_else(|| panic!("{rel}: no function containing `{name_part}`"));
    let mut out = String::new();
    print_function(&mut out, &m, f);
    out
}

#[test]
fn hand_written_control_shapes() {
    insta::assert_snapshot!(function_ir("tests/data/control.ptx", "shapes"));
}

#[test]
fn hand_written_device_function() {
    insta::assert_snapshot!(function_ir("tests/data/control.ptx", "twice"));
}

#[test]
fn tid_dependent_loop() {
    insta::assert_snapshot!(function_ir("tests/data/loops.ptx", "tid_trip"));
}

#[test]
fn bitonic_sort_nested_loops_and_barriers() {
    insta::assert_snapshot!(function_ir("tests/data/bitonic.ptx", "bitonic"));
}

#[test]
fn branch_on_thread_index() {
    insta::assert_snapshot!(function_ir("tests/data/branch_tid.ptx", "_Z"));
}

#[test]
fn call_resolves_through_the_param_abi() {
    let (m, _) = load("tests/data/control.ptx");
    let cg = warpscope_ir::CallGraph::with_module(&m);
    let shapes = m.func_by_name("shapes").unwrap();
    let twice = m.func_by_name("twice").unwrap();
    let calls: Vec<_> = cg.calls_from(shapes).collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].callee, Some(twice));
    assert_eq!(cg.calls_to(twice).count(), 1);
    assert!(!cg.is_recursive(shapes));
    let order = cg.bottom_up();
    let pos = |f| order.iter().position(|&g| g == f).unwrap();
    assert!(pos(twice) < pos(shapes), "callees come first");
}
