//! Runs every `corpus/*.toml` launch spec in deterministic and in parallel mode: the outputs
//! must be identical (the corpus kernels are race-free, or their races are order-free integer
//! atomics), match easy CPU references where the corpus allows one, and, once the H100's
//! outputs are in `validation/h100/outputs/`, match the GPU (see `scripts/h100/compare.py`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use warpscope_emu::{ExecConfig, LaunchSpec, NoObserver, RunOptions, Schedule, run_spec};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn specs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    // The emulator's own instruction-coverage spec.
    v.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/typical.toml"));
    v
}

fn run(spec: &LaunchSpec, deterministic: bool) -> HashMap<String, Vec<u8>> {
    let dir = std::env::temp_dir().join(format!(
        "warpscope-corpus-{}-{}",
        std::process::id(),
        deterministic
    ));
    let opts = RunOptions {
        exec: ExecConfig {
            schedule: if deterministic {
                Schedule::Emulated
            } else {
                Schedule::Parallel
            },
            threads: if deterministic { None } else { Some(2) },
            ..ExecConfig::default()
        },
        save_dir: Some(dir.clone()),
        ..RunOptions::default()
    };
    let report = run_spec(spec, &opts, &mut NoObserver)
        .unwrap_or_else(|e| panic!("{}: {e}", spec.path.display()));
    let _ = std::fs::remove_dir_all(&dir);
    report.buffers.into_iter().collect()
}

/// Buffers whose table in the spec holds the comment `# order nondeterministic`: their
/// elements are compared as a sorted multiset (e.g. slots handed out by atomicAdd).
fn unordered_buffers(spec_text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in spec_text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("[buffer.") {
            current = rest.strip_suffix(']').map(str::to_string);
        } else if l.starts_with('[') {
            current = None;
        } else if l.starts_with('#')
            && l.contains("order nondeterministic")
            && let Some(c) = &current
        {
            out.push(c.clone());
        }
    }
    out
}

fn sorted_words(b: &[u8]) -> Vec<[u8; 4]> {
    let mut v: Vec<[u8; 4]> = b
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    v.sort_unstable();
    v
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Kernel-specific checks against host computations.
fn check_reference(name: &str, bufs: &HashMap<String, Vec<u8>>) {
    match name {
        "reduction" => {
            // in[i] = i % 17; every variant writes one partial sum per 256-element block.
            let expect: Vec<f32> = (0..1024)
                .map(|b| (b * 256..(b + 1) * 256).map(|i| (i % 17) as f32).sum())
                .collect();
            for p in ["p0", "p1", "p2"] {
                assert_eq!(f32s(&bufs[p]), expect, "reduction {p}");
            }
            // reduce_shfl: 512 blocks of 512 elements.
            let expect: Vec<f32> = (0..1024)
                .map(|b| {
                    if b < 512 {
                        (b * 512..(b + 1) * 512).map(|i| (i % 17) as f32).sum()
                    } else {
                        0.0
                    }
                })
                .collect();
            assert_eq!(f32s(&bufs["p3"]), expect, "reduction p3");
        }
        "histogram" => {
            let mut h = vec![0u32; 256];
            for i in 0..1_048_576u32 {
                h[((i.wrapping_mul(2_654_435_761)) >> 20) as usize & 255] += 1;
            }
            assert_eq!(u32s(&bufs["h1"]), h, "hist_global");
            assert_eq!(u32s(&bufs["h2"]), h, "hist_shared");
        }
        "scan" => {
            let fout = f32s(&bufs["fout"]);
            for b in 0..512 {
                let mut acc = 0f32;
                for t in 0..256 {
                    let i = b * 256 + t;
                    acc += (i % 3) as f32;
                    assert_eq!(fout[i], acc, "hillis-steele {i}");
                }
            }
            let iout = u32s(&bufs["iout"]);
            for b in 0..256 {
                let mut acc = 0u32;
                for t in 0..512 {
                    let i = b * 512 + t;
                    assert_eq!(iout[i], acc, "blelloch {i}");
                    acc += (i % 5) as u32;
                }
            }
        }
        "transpose" => {
            let input = f32s(&bufs["in"]);
            for out in ["naive", "tiled", "padded"] {
                let o = f32s(&bufs[out]);
                for y in 0..512 {
                    for x in 0..512 {
                        assert_eq!(o[x * 512 + y], input[y * 512 + x], "{out} ({x},{y})");
                    }
                }
            }
        }
        _ => {}
    }
}

#[test]
fn corpus_runs_identically_in_both_modes_and_matches_references() {
    let all = specs();
    assert!(!all.is_empty(), "no corpus specs found");
    let mut checked = 0;
    for path in all {
        let spec = LaunchSpec::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let unordered = unordered_buffers(&std::fs::read_to_string(&path).unwrap());
        let a = run(&spec, true);
        let b = run(&spec, false);
        for (name, bytes) in &a {
            if unordered.contains(name) {
                assert_eq!(
                    sorted_words(&b[name]),
                    sorted_words(bytes),
                    "{}: buffer `{name}` holds different elements",
                    path.display()
                );
                continue;
            }
            assert!(
                b[name] == *bytes,
                "{}: buffer `{name}` differs between deterministic and parallel runs",
                path.display()
            );
        }
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        check_reference(&stem, &a);
        checked += 1;
    }
    assert!(checked >= 10);
}

#[test]
fn repeats_variables_offsets_and_saved_files() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/repeat.toml");
    let spec = LaunchSpec::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let dir = std::env::temp_dir().join(format!("warpscope-repeat-{}", std::process::id()));
    let opts = RunOptions {
        exec: ExecConfig {
            schedule: Schedule::Emulated,
            ..ExecConfig::default()
        },
        save_dir: Some(dir.clone()),
        ..RunOptions::default()
    };
    let report = run_spec(&spec, &opts, &mut NoObserver).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.launches.len(), 10);
    let saved = std::fs::read(dir.join("repeat_out.bin")).expect("saved file");
    let out = f32s(&saved);
    for (i, &v) in out.iter().enumerate() {
        // The interior pointer skips 16 floats; launch t writes floats 16 + 32t .. 16 + 32t + 31.
        let expect = if (16..16 + 320).contains(&i) {
            1.0 + ((i - 16) / 32) as f32 + 0.5
        } else {
            1.0
        };
        assert_eq!(v, expect, "element {i}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
