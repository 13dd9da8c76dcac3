//! Fuzz target: the parser must never panic, diagnostics must render, and any input that
//! parses without errors must print to PTX that re-parses without errors to an equal AST.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    // Declared before the modules so that it outlives them (they borrow from it).
    let printed: String;
    let (module, errors) = warpscope_ptx::parse(&src);
    if !errors.is_empty() {
        // Rendering is part of the contract too (spans inside the text, char boundaries).
        let n = errors.len().min(16);
        let _ = warpscope_ptx::render_errors("fuzz.ptx", &src, &errors[..n]);
        return;
    }
    printed = module.to_string();
    let (reparsed, errors2) = warpscope_ptx::parse(&printed);
    assert!(
        errors2.is_empty(),
        "printed module does not parse:\n{printed}"
    );
    let mut a = module;
    let mut b = reparsed;
    a.strip_spans();
    b.strip_spans();
    assert!(a == b, "round trip changed the AST:\n{printed}");
});
