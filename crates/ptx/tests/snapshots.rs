//! insta snapshots: a compact AST dump of small modules and rendered diagnostics of
//! malformed inputs.

use warpscope_ptx::{ErrorKind, parse, render_errors};

const SMALL: &str = r#"
.version 8.5
.target sm_90
.address_size 64

.shared .align 4 .b8 smem[128];

.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
.maxntid 128, 1, 1
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .f32 %f<2>;
	.reg .b64 %rd<3>;

	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $L__BB0_2;
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.nc.v2.f32 {%f1, _}, [%rd2+8];
	shfl.sync.bfly.b32 %r2|%p1, %r1, 16, 31, -1;
	atom.global.add.f32 %f1, [%rd2], 0f3F800000;
	st.shared.u32 [smem+-4], %r2;
	.loc 1 12 5, function_name $L__info_string0, inlined_at 1 30 7
$L__BB0_2:
	{
		.reg .pred p;
		setp.ne.u32 p, %r1, 0;
		@!p ret;
	}
	ret;
}
"#;

#[test]
fn ast_small_kernel() {
    let (mut m, errors) = parse(SMALL);
    assert!(
        errors.is_empty(),
        "{}",
        render_errors("small.ptx", SMALL, &errors)
    );
    m.strip_spans();
    insta::assert_debug_snapshot!("ast_small_kernel", m);
}

#[test]
fn ast_call_sequence() {
    let src = r#"
.version 9.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 $str[4] = {104, 105, 10, 0};
.visible .entry p() {
	.reg .b64 %rd<3>;
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	.param .b64 param1;
	st.param.b64 [param1], 0;
	.param .b32 retval0;
	prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .b64 _);
	call.uni (retval0), vprintf, (param0, param1);
	call (retval0), %rd2, (param0, param1), prototype_0;
	} // callseq 0
	ret;
}
"#;
    let (mut m, errors) = parse(src);
    assert!(
        errors.is_empty(),
        "{}",
        render_errors("call.ptx", src, &errors)
    );
    m.strip_spans();
    insta::assert_debug_snapshot!("ast_call_sequence", m);
}

const HEADER: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

fn errors_of(name: &str, body: &str) -> (String, Vec<ErrorKind>) {
    let src = format!("{HEADER}{body}");
    let (_, errors) = parse(&src);
    (
        render_errors(name, &src, &errors),
        errors.iter().map(|e| e.kind).collect(),
    )
}

fn kernel(body: &str) -> String {
    format!(".visible .entry k()\n{{\n\t.reg .b32 %r<8>;\n{body}\tret;\n}}\n")
}

#[test]
fn error_unknown_instruction() {
    let (text, kinds) = errors_of("unknown_insn.ptx", &kernel("\tfrobnicate.u32 %r1, %r2;\n"));
    assert_eq!(kinds, [ErrorKind::UnknownInstruction]);
    insta::assert_snapshot!("error_unknown_instruction", text);
}

#[test]
fn error_unknown_modifier() {
    let (text, kinds) = errors_of(
        "unknown_mod.ptx",
        &kernel("\tadd.s32.wobbly %r1, %r2, %r3;\n\tld.ftz.u32 %r1, [%r2];\n"),
    );
    assert_eq!(
        kinds,
        [ErrorKind::UnknownModifier, ErrorKind::UnknownModifier]
    );
    insta::assert_snapshot!("error_unknown_modifier", text);
}

#[test]
fn error_missing_semicolon() {
    let (text, kinds) = errors_of(
        "semi.ptx",
        &kernel("\tmov.u32 %r1, %r2\n\tadd.s32 %r3, %r1, 1;\n"),
    );
    assert_eq!(kinds, [ErrorKind::Expected]);
    insta::assert_snapshot!("error_missing_semicolon", text);
}

#[test]
fn error_bad_register_range() {
    let (text, kinds) = errors_of(
        "range.ptx",
        &kernel("\t.reg .b32 %q<0>;\n\t.reg .b32 %s<x>;\n\t.reg .b32 %t<99999999999>;\n"),
    );
    assert_eq!(kinds, [ErrorKind::BadRegisterRange; 3]);
    insta::assert_snapshot!("error_bad_register_range", text);
}

#[test]
fn error_unterminated_string_and_comment() {
    let (text, kinds) = errors_of("unterminated.ptx", ".file 1 \"abc.cu\n/* never closed\n");
    assert_eq!(
        kinds,
        [
            ErrorKind::UnterminatedString,
            ErrorKind::UnterminatedComment
        ]
    );
    insta::assert_snapshot!("error_unterminated", text);
}

#[test]
fn error_garbage_bytes() {
    let (text, kinds) = errors_of(
        "garbage.ptx",
        &kernel("\tmov.u32 %r1, #;\n\t\u{7f}\u{1}\n\tmov.u32 %r1, ´;\n"),
    );
    assert_eq!(kinds, [ErrorKind::InvalidToken; 3]);
    insta::assert_snapshot!("error_garbage", text);
}

#[test]
fn error_bad_numbers() {
    let (text, kinds) = errors_of(
        "numbers.ptx",
        &kernel(
            "\tmov.f32 %r1, 0f3F80;\n\tmov.u64 %r1, 99999999999999999999999;\n\tmov.u32 %r1, 0x;\n\tmov.u32 %r1, 09;\n",
        ),
    );
    assert_eq!(kinds, [ErrorKind::BadNumber; 4]);
    insta::assert_snapshot!("error_bad_numbers", text);
}

#[test]
fn error_unbalanced_braces() {
    let (text, kinds) = errors_of("braces.ptx", ".visible .entry k()\n{\n\t{\n\tret;\n}\n");
    assert_eq!(kinds, [ErrorKind::Unbalanced]);
    insta::assert_snapshot!("error_unbalanced", text);
    let (text2, kinds2) = errors_of(
        "braces2.ptx",
        ".visible .entry k()\n{\n\tret;\n}\n}\n.global .u32 x;\n",
    );
    assert_eq!(kinds2, [ErrorKind::Expected]);
    insta::assert_snapshot!("error_unbalanced_extra_close", text2);
}

#[test]
fn many_errors_in_one_file_are_all_reported() {
    let body = kernel(
        "\tfoo.u32 %r1;\n\tadd.s32.bad %r1, %r2, %r3;\n\tmov.u32 %r1 %r2;\n\tqux.u32 %r1;\n\tmov.u32 %r1, 0f12;\n\tld.global.u32 %r1, [%r2+];\n\tst.global.u32 [%r1], %r2;\n",
    );
    let src = format!(
        "{HEADER}{body}.bogus_directive 1;\n.global .u32 ok;\n.visible .entry k2()\n{{\n\tbaz;\n\tret;\n}}\n"
    );
    let (m, errors) = parse(&src);
    let text = render_errors("many.ptx", &src, &errors);
    assert_eq!(errors.len(), 8, "{text}");
    // recovery kept the valid parts
    assert_eq!(m.functions().count(), 2);
    insta::assert_snapshot!("error_many", text);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let body = format!(
        ".visible .entry k()\n{{\n{}{}\n}}\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    let (_, errors) = parse(&format!("{HEADER}{body}"));
    assert!(errors.iter().any(|e| e.kind == ErrorKind::TooDeep));
    let init = format!(
        ".global .u32 x[1] = {}1{};\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    let (_, errors) = parse(&format!("{HEADER}{init}"));
    assert!(errors.iter().any(|e| e.kind == ErrorKind::TooDeep));
}
