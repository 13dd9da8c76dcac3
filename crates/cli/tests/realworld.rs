//! `warpscope check` on the real-world evaluation set (validation/realworld: public CUDA
//! applications nobody on this project wrote), scored line by line against what Nsight Compute
//! counted on an H100, with defaults, with every CUDA file of the application given as host
//! source (`--host-source`), and with the geometry each kernel ran with. Fails when a
//! score falls below its floor in validation/realworld/floors.tsv. Modules that `check` cannot
//! answer in time today are listed in validation/realworld/skip.tsv (the list shrinks as the
//! budgets of issue 10 land). Needs no GPU and no compiler: PTX and truth are committed.
//!
//! The same scoring, with tables: `cargo run -p warpscope-realworld -- --modules`.

use std::path::PathBuf;
use std::time::Duration;
use warpscope_realworld::{
    Mode, check_floors, load_apps, modules_markdown, parse_floors, parse_skip, score_all,
    summary_markdown,
};

/// Generous for a debug build on a busy 2-core machine; a module over it counts as failed.
const LIMIT: Duration = Duration::from_secs(120);

/// Each test here keeps the machine's cores busy with `check` runs: one at a time, so the
/// limit measures `check` (cs_reduction, the largest module, took over 120 s when the scoring
/// and the largest-modules test ran it at once on 2 cores), not the other tests.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn realworld_scores_stay_above_their_floors() {
    let _one = one_at_a_time();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_warpscope"));
    let apps = load_apps(&root).expect("load validation/realworld");
    assert!(apps.len() >= 25, "only {} applications", apps.len());
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let floors = parse_floors(&read("validation/realworld/floors.tsv")).expect("floors.tsv");
    let skip_text = read("validation/realworld/skip.tsv");
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let mut failed = Vec::new();
    // The PTX-only mode (`--no-host-source`) is scored by `realworld-score --mode all`. The
    // SASS mode needs ptxas (CI installs it with nvcc).
    let mut modes = vec![Mode::Defaults, Mode::HostSource, Mode::Geometry];
    if warpscope_frontend::toolchain::find_cuda_tool("ptxas").is_some() {
        modes.push(Mode::Sass);
    } else {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"\nSKIPPED realworld mode `sass`: ptxas not found (pip install \
              nvidia-cuda-nvcc==13.0.88)\n\n",
        );
    }
    for mode in modes {
        let key = mode.key();
        let skip = parse_skip(&skip_text, key);
        let s = score_all(&bin, &root, &apps, mode, LIMIT, &skip, jobs);
        eprintln!("{}\n{}", summary_markdown(mode, &s), modules_markdown(&s));
        failed.extend(check_floors(&s, key, &floors));
    }
    assert!(
        failed.is_empty(),
        "real-world scores fell below their floors:\n{}",
        failed.join("\n")
    );
}

/// Runs `warpscope check --format json` on `ptx` with the test's limit: `Err` with why when it
/// panics, aborts (a signal: stack overflow), stalls, or exits 2 without an error message.
fn check_ends_cleanly(root: &std::path::Path, ptx: &std::path::Path) -> Result<(), String> {
    use std::process::{Command, Stdio};
    use wait_timeout::ChildExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .env("WARPSCOPE_SASS", "off")
        .current_dir(root)
        .args(["check", "--format", "json"])
        .arg(ptx)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("run warpscope: {e}"))?;
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let status = child.wait_timeout(LIMIT).map_err(|e| e.to_string())?;
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("no answer in {LIMIT:?}"));
    };
    let stderr = reader.join().unwrap_or_default();
    let last = stderr.lines().last().unwrap_or("").to_string();
    match status.code() {
        _ if stderr.contains("panicked") => Err(format!("panic: {last}")),
        Some(0 | 1) => Ok(()),
        Some(2) if stderr.contains("error") => Ok(()),
        _ => Err(format!("ended with {status}: {last}")),
    }
}

/// The largest real-world modules (tens of thousands of lines, hundreds of kernels) end with a
/// report or a clean error: no panic, no abort (stack overflow), no stall past the limit.
#[test]
fn largest_realworld_modules_end_cleanly() {
    let _one = one_at_a_time();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let ptx = warpscope_realworld::packed::ptx_dir(&root).expect("real-world PTX");
    let mut mods: Vec<(usize, PathBuf)> = std::fs::read_dir(ptx)
        .expect("validation/realworld/ptx")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            (
                std::fs::read_to_string(&p).map_or(0, |t| t.lines().count()),
                p,
            )
        })
        .collect();
    mods.sort();
    let mut largest: Vec<_> = mods.iter().rev().take(3).collect();
    assert!(largest[0].0 > 10_000, "expected a module over 10k lines");
    // And the slowest for its size: HeCBench's resize (a few hundred lines) took 1.7-2 s of
    // a release build while its branch sites' budget counted leaves, not the values
    // recomputed for them.
    if let Some(m) = mods.iter().find(|(_, p)| p.ends_with("hb_resize.ptx")) {
        largest.push(m);
    }
    for (lines, p) in largest {
        if let Err(why) = check_ends_cleanly(&root, p) {
            panic!("{} ({lines} lines): {why}", p.display());
        }
    }
}

/// A small generator of pseudo-random numbers (splitmix64): the mutations must be the same on
/// every run, and the test needs nothing more.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Byte ranges of a line's tokens: names (`%r1`, `$L__BB0_2`, `.global`), numbers, and single
/// punctuation characters (what scripts/realworld/mutate.py swaps).
fn tokens(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'%');
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() || !b[i].is_ascii() {
            i += 1;
        } else if word(b[i]) {
            let s = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            out.push((s, i));
        } else {
            out.push((i, i + 1));
            i += 1;
        }
    }
    out
}

/// One to three random mutations of `lines`: drop, duplicate or swap lines, or swap two tokens.
fn mutate(lines: &mut Vec<String>, rng: &mut Rng) -> Vec<String> {
    let mut done = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let n = lines.len();
        if n < 2 {
            break;
        }
        let (i, j) = (rng.below(n), rng.below(n));
        match rng.below(5) {
            0 => {
                lines.remove(i);
                done.push(format!("drop {}", i + 1));
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
                done.push(format!("dup {}", i + 1));
            }
            2 => {
                lines.swap(i, j);
                done.push(format!("swap {} {}", i + 1, j + 1));
            }
            _ => {
                let (ti, tj) = (tokens(&lines[i]), tokens(&lines[j]));
                if ti.is_empty() || tj.is_empty() || i == j {
                    continue;
                }
                let (a, b) = (ti[rng.below(ti.len())], tj[rng.below(tj.len())]);
                let (x, y) = (
                    lines[i][a.0..a.1].to_string(),
                    lines[j][b.0..b.1].to_string(),
                );
                lines[i].replace_range(a.0..a.1, &y);
                lines[j].replace_range(b.0..b.1, &x);
                done.push(format!("token {}:{x:?} <-> {}:{y:?}", i + 1, j + 1));
            }
        }
    }
    done
}

/// Mutated real PTX (a fixed, seeded sample of random line drops, duplications, swaps and
/// token swaps of corpus and real-world modules) ends with a report or a clean error: no
/// panic, no abort, no stall. The large run is scripts/realworld/mutate.py
/// (docs/reliability.md).
#[test]
fn mutated_modules_end_cleanly() {
    let _one = one_at_a_time();
    const CASES: usize = 48;
    const MAX_LINES: usize = 2_500;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let ptx = warpscope_realworld::packed::ptx_dir(&root).expect("real-world PTX");
    let mut mods: Vec<PathBuf> = [ptx, root.join("corpus")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("module folder"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.lines().count() <= MAX_LINES))
        .collect();
    mods.sort();
    assert!(mods.len() >= 40, "only {} modules", mods.len());
    let dir = std::env::temp_dir().join(format!("warpscope-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rng = Rng(10);
    let mut failed = Vec::new();
    for n in 0..CASES {
        let src = &mods[rng.below(mods.len())];
        let text = std::fs::read_to_string(src).expect("read module");
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let ops = mutate(&mut lines, &mut rng);
        let path = dir.join(format!("case_{n}.ptx"));
        std::fs::write(&path, lines.join("\n")).expect("write mutant");
        if let Err(why) = check_ends_cleanly(&root, &path) {
            failed.push(format!(
                "case {n}, {} [{}]: {why}",
                src.display(),
                ops.join("; ")
            ));
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
    assert!(
        failed.is_empty(),
        "mutants that did not end cleanly (kept in {}):\n{}",
        dir.display(),
        failed.join("\n")
    );
    let _ = std::fs::remove_dir(&dir);
}

/// Mutants that `scripts/realworld/mutate.py` found to stall or abort, replayed: each is a
/// committed real-world module with the swaps the script reported (1-based line numbers).
#[test]
fn mutants_that_once_failed_end_cleanly() {
    let _one = one_at_a_time();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    warpscope_realworld::packed::ptx_dir(&root).expect("real-world PTX");
    // Seed 23, case 109 (2026-11-27): two swaps move a loop's entry around its header, so a
    // loop variable's initial value reads the variable itself; its closed form referred to
    // itself and evaluation recursed until memory ran out (24 GB in 47 s).
    let cases: [(&str, &[(usize, usize)]); 1] = [(
        "validation/realworld/ptx/hb_rainflow.ptx",
        &[(484, 289), (408, 165)],
    )];
    let dir = std::env::temp_dir().join(format!("warpscope-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failed = Vec::new();
    for (n, (src, swaps)) in cases.iter().enumerate() {
        let text = std::fs::read_to_string(root.join(src)).expect("read module");
        let mut lines: Vec<&str> = text.lines().collect();
        for &(i, j) in swaps.iter() {
            lines.swap(i - 1, j - 1);
        }
        let path = dir.join(format!("replay_{n}.ptx"));
        std::fs::write(&path, lines.join("\n")).expect("write mutant");
        if let Err(why) = check_ends_cleanly(&root, &path) {
            failed.push(format!("{src} {swaps:?}: {why}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
