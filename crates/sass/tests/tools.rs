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
        "_Z11shared_linePKfS0_ii",
        "_Z12moved_searchPKiS0_Pi",
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
    // Line 55 keeps a SASS branch, but it is the unrolled loop's uniform trip-count test
    // sharing the lane test's line (what the analysis must not take for the lane test's).
    assert_eq!(
        t.branch_at(&["_Z11shared_linePKfS0_ii"], FILE, 55),
        BranchAtLine::Kept
    );
    // The binary search's tests keep no branch; ptxas put the loop's branches at the updates
    // of its two sides.
    for line in [82, 83] {
        assert_eq!(
            t.branch_at(&["_Z12moved_searchPKiS0_Pi"], FILE, line),
            BranchAtLine::None,
            "line {line}"
        );
    }
    for line in [86, 88] {
        assert_eq!(
            t.branch_at(&["_Z12moved_searchPKiS0_Pi"], FILE, line),
            BranchAtLine::Kept,
            "line {line}"
        );
    }
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

#[test]
fn a_module_calling_an_extern_function_is_compiled_relocatable() {
    let Some(tools) = tools() else {
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED warpscope-sass extern function: ptxas not found\n"
        );
        return;
    };
    // What nvcc -rdc emits for a kernel calling a device function of another file.
    let ptx = r#".version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) _Z3twoi(.param .b32 _Z3twoi_param_0);
.visible .entry _Z1kPi(.param .u64 _Z1kPi_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [_Z1kPi_param_0];
	mov.u32 %r1, %tid.x;
	setp.gt.u32 %p1, %r1, 3;
	@%p1 bra $L__BB0_2;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), _Z3twoi, (param0);
	ld.param.b32 %r2, [retval0];
	}
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r2;
$L__BB0_2:
	ret;
}
"#;
    let listing = compile(&tools, ptx, "sm_90").expect("compiled with -c");
    assert!(listing.functions.iter().any(|f| f.name == "_Z1kPi"));
}
