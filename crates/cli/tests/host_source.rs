//! `check` reads kernel launches from host code: the CUDA sources a module names (found from
//! the PTX's `.file` lines) and `--host-source` files; `--no-host-source` reads none. Integer
//! arguments that every launch passes as a compile-time constant bind the kernel's
//! parameters, with the launch as provenance (`--verbose`, JSON kernel notes, the finding's
//! notes).

mod common;

use serde_json::Value;
use std::path::PathBuf;

const PTX: &str = "crates/analysis/tests/patterns/launch_args.ptx";

fn json(args: &[&str]) -> Value {
    let mut a = vec!["check", "--format", "json"];
    a.extend_from_slice(args);
    let (code, out, err) = common::warpscope(&a);
    assert_eq!(code, 0, "warpscope {}: {err}", a.join(" "));
    serde_json::from_str(&out).unwrap()
}

/// The divergent-branch finding on CUDA line `line` of the report.
fn branch(v: &Value, line: u64) -> Value {
    v["report"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "divergent-branch" && f["location"]["cuda"]["line"] == line)
        .cloned()
        .unwrap_or_else(|| panic!("no divergent-branch on line {line}"))
}

fn notes(f: &Value) -> Vec<String> {
    f["notes"]
        .as_array()
        .map(|n| {
            n.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn launch_arguments_of_the_named_source_bind_parameters() {
    let v = json(&[PTX]);
    let f = branch(&v, 13);
    assert_eq!(f["certainty"], "definite");
    assert!(f.get("kind").is_none(), "{f}");
    assert!(
        notes(&f).contains(
            &"assuming count = 240 (from the launch at crates/analysis/tests/patterns/launch_args.cu:36)"
                .to_string()
        ),
        "{f}"
    );
    // Without host code the bound is unknown: a boundary note.
    let v = json(&["--no-host-source", PTX]);
    let f = branch(&v, 13);
    assert_eq!(f["certainty"], "possible");
    assert_eq!(f["kind"], "boundary");
    // --verbose prints where the value came from.
    let (code, out, err) = common::warpscope(&["check", "--verbose", PTX]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("assuming count = 240 (from the launch at "),
        "{out}"
    );
    assert!(
        out.contains("assuming n in {96, 240} (the 2 launches at "),
        "{out}"
    );
}

#[test]
fn host_source_files_given_on_the_command_line_are_read() {
    // A copy of the PTX whose `.file` names a source that is not there: only the host file
    // given says how the kernel is launched (and with the kernel's source gone, its
    // parameters are named by position).
    let (p, host) = moved_ptx_and_host(
        "host_source",
        b"#include \"sizes.h\"\nvoid go(unsigned *o, const unsigned *p) {\n    merge_parts<<<64, THREADS>>>(o, p, PARTS - 8);\n}\n",
        b"#define THREADS 256\n#define PARTS 240\n",
    );
    let (p, host) = (p.as_str(), host.as_str());
    let f = branch(&json(&[p]), 13);
    assert_eq!(f["kind"], "boundary", "no host code: {f}");
    let v = json(&["--host-source", host, p]);
    let f = branch(&v, 13);
    assert_eq!(f["certainty"], "definite", "{f}");
    assert!(
        notes(&f)
            .iter()
            .any(|n| n.starts_with("assuming #2 = 232 (from the launch at ")
                && n.ends_with("host.cu:3)")),
        "{f}"
    );
    let k = v["report"]["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "merge_parts")
        .unwrap();
    assert!(
        k["geometry"]
            .as_str()
            .unwrap()
            .starts_with("block 256x1x1 (launch at "),
        "{k}"
    );
    // A host file that cannot be read is an error naming it.
    let (code, _, err) = common::warpscope(&["check", "--host-source", "no/such.cu", p]);
    assert_eq!(code, 2);
    assert!(err.contains("--host-source no/such.cu"), "{err}");
}

/// Host code in Latin-1 (HeCBench's hwt1d has such a comment) is read, not refused: `check`
/// failed with "stream did not contain valid UTF-8" before.
#[test]
fn host_source_that_is_not_utf8_is_read() {
    let mut host = b"// r\xe9sum\xe9 (Latin-1)\n#include \"sizes.h\"\n".to_vec();
    host.extend_from_slice(
        b"void go(unsigned *o, const unsigned *p) {\n    merge_parts<<<64, THREADS>>>(o, p, PARTS - 8);\n}\n",
    );
    let (p, host) = moved_ptx_and_host(
        "host_source_latin1",
        &host,
        b"/* \xa9 */\n#define THREADS 256\n#define PARTS 240\n",
    );
    let (p, host) = (p.as_str(), host.as_str());
    let f = branch(&json(&["--host-source", host, p]), 13);
    assert_eq!(f["certainty"], "definite", "{f}");
    assert!(
        notes(&f)
            .iter()
            .any(|n| n.starts_with("assuming #2 = 232 (from the launch at ")
                && n.ends_with("host.cu:4)")),
        "{f}"
    );
}

/// A copy of the PTX whose `.file` names a source that is not there, beside `host.cu` and the
/// `sizes.h` it includes, in a folder of its own: (the PTX's path, the host file's path).
fn moved_ptx_and_host(dir: &str, host: &[u8], sizes: &[u8]) -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let ptx = std::fs::read_to_string(root.join(PTX)).unwrap().replace(
        "crates/analysis/tests/patterns/launch_args.cu",
        "gone/launch_args.cu",
    );
    let p = dir.join("moved.ptx");
    std::fs::write(&p, ptx).unwrap();
    let h = dir.join("host.cu");
    std::fs::write(&h, host).unwrap();
    std::fs::write(dir.join("sizes.h"), sizes).unwrap();
    (p.display().to_string(), h.display().to_string())
}

/// A module whose kernels live in a header names only the header in its `.file` lines; the
/// `.cu` beside it that includes it (the translation unit, with the launches) is read too,
/// and a `.cu` beside it that does not include it is not. The launch here passes 232 for 256
/// threads: the last warp splits on the first trip.
#[test]
fn translation_units_that_include_the_named_header_are_read() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("host_source_includer");
    std::fs::create_dir_all(&dir).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let header = dir.join("kernels.h");
    // The kernels of the pattern without its launches.
    let source =
        std::fs::read_to_string(root.join("crates/analysis/tests/patterns/launch_args.cu"))
            .unwrap();
    let kernels = &source[..source.find("void run(").unwrap()];
    std::fs::write(&header, kernels).unwrap();
    let ptx = std::fs::read_to_string(root.join(PTX)).unwrap().replace(
        "\"crates/analysis/tests/patterns/launch_args.cu\"",
        &format!("\"{}\"", header.display()),
    );
    let p = dir.join("kernels.ptx");
    std::fs::write(&p, ptx).unwrap();
    let p = p.display().to_string();
    // A source beside the header that does not include it launches the kernel otherwise: it
    // is not read.
    std::fs::write(
        dir.join("other.cu"),
        b"void other(unsigned *o, const unsigned *p) {\n    merge_parts<<<64, 256>>>(o, p, 240);\n}\n",
    )
    .unwrap();
    let main = dir.join("main.cu");
    let _ = std::fs::remove_file(&main);
    let f = branch(&json(&[&p]), 13);
    assert_eq!(f["kind"], "boundary", "no includer: {f}");
    std::fs::write(
        &main,
        b"#include <cstdio>\n#include \"kernels.h\"\nvoid go(unsigned *o, const unsigned *p) {\n    merge_parts<<<64, 256>>>(o, p, 232);\n}\n",
    )
    .unwrap();
    let v = json(&[&p]);
    let f = branch(&v, 13);
    assert_eq!(f["certainty"], "definite", "{f}");
    assert!(
        notes(&f).iter().any(
            |n| n.starts_with("assuming count = 232 (from the launch at ")
                && n.ends_with("main.cu:4)")
        ),
        "{f}"
    );
    // --no-host-source still reads nothing.
    let f = branch(&json(&["--no-host-source", &p]), 13);
    assert_eq!(f["kind"], "boundary", "{f}");
}
