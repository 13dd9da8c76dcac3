//! ptxas on a module whose branches' lowering is known (`tests/data/lowering.cu`): what the line
//! table read from its cubin says must match what ptxas 13.0.88 does there. Only ptxas is
//! needed; without it the test says SKIPPED where the harness does not capture it.

use std::io::Write;
use std::path::PathBuf;
use warpscope_sass::{BranchAtLine, LineBranches, Toolchain, compile};

const FILE: &str = "crates/sass/tests/data/lowering.cu";

fn tools() -> Option<Toolchain> {
    let ptxas = warpscope_frontend::toolchain::find_cuda_tool("ptxas")?;
    Some(Toolchain::ptxas_only(ptxas))
}

#[test]
fn line_table_matches_ptxas_lowering() {
    let Some(tools) = tools() else {
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED warpscope-sass tools: ptxas not found (pip install \
             nvidia-cuda-nvcc==13.0.88)\n"
        );
        return;
    };
    let ptx = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/lowering.ptx"),
    )
    .expect("lowering.ptx");
    let listing = compile(&tools, &ptx, "sm_90").expect("ptxas and the cubin reader");
    let t = LineBranches::new(&listing, "test");
    for k in [
        "_Z11stores_keptPKfPfS1_i",
        "_Z15long_predicatedPKfPfi",
        "_Z9tail_exitPKiPii",
    ] {
        assert!(t.has_function(k), "{k} missing from the listing");
    }
    // The short body with two stores keeps its branch.
    assert_eq!(
        t.branch_at(&["_Z11stores_keptPKfPfS1_i"], FILE, 9),
        BranchAtLine::Kept
    );
    // The long body is predicated, and so is the tail exit.
    assert_eq!(
        t.branch_at(&["_Z15long_predicatedPKfPfi"], FILE, 21),
        BranchAtLine::None
    );
    assert_eq!(
        t.branch_at(&["_Z9tail_exitPKiPii"], FILE, 37),
        BranchAtLine::None
    );
    // A line with no code, and a function the module does not have.
    assert_eq!(
        t.branch_at(&["_Z9tail_exitPKiPii"], FILE, 1),
        BranchAtLine::Unknown
    );
    assert_eq!(t.branch_at(&["nope"], FILE, 9), BranchAtLine::Unknown);
}

#[test]
fn a_bad_module_is_an_error_not_a_panic() {
    let Some(tools) = tools() else {
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED warpscope-sass bad module: ptxas not found\n"
        );
        return;
    };
    let err = compile(
        &tools,
        ".version 9.0\n.target sm_90\n.entry k( {\n",
        "sm_90",
    )
    .expect_err("malformed PTX");
    assert!(err.to_string().starts_with("ptxas failed"), "{err}");
}
