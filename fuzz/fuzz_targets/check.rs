//! Fuzz target: `warpscope check`'s analysis on any PTX that parses and lowers must end (no
//! panic, no stack overflow, no hang past libFuzzer's `-timeout`) and its report must render
//! as JSON, SARIF and text. Seeded with real-world and corpus modules (`seed.sh`), whose
//! mutations keep most of their structure, so the analysis (not only the parser) is reached.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warpscope_analysis::{CheckOptions, Input, check};

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let (ast, errors) = warpscope_ptx::parse(&src);
    if !errors.is_empty() {
        return;
    }
    let (module, errors) = warpscope_ir::lower_module(ast);
    if !errors.is_empty() {
        return;
    }
    let no_source = |_: u32| None;
    let input = Input {
        module: &module,
        ptx_name: "fuzz.ptx",
        ptx_text: &src,
        source: &no_source,
    };
    // On the fuzzer's own thread, as the CLI runs it on its main thread: deep recursions
    // continue on fresh stack segments (`warpscope_analysis`'s `stack` module).
    let report = check(&input, &CheckOptions::default()).report;
    let _ = warpscope_report::json::render(&report);
    let _ = warpscope_report::sarif::render(&report);
    let _ = warpscope_report::text::render(
        &report,
        &warpscope_report::text::Sources::new(),
        &warpscope_report::text::TextOptions::default(),
    );
});
