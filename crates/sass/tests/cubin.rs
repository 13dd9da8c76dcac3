//! The cubin reader against nvdisasm: for each module, ptxas builds the cubin once, and the
//! table read from it directly must be nvdisasm's (`-g -c`) to the instruction: the same
//! functions, instructions, base opcodes, guards, branch forms and operands, CUDA positions,
//! and so the same [`LineBranches`].
//!
//! By default a sample of modules chosen for what they exercise (listed in [`SAMPLE`]);
//! `WARPSCOPE_SASS_CUBIN_ALL=1` compares every module under `validation/realworld/ptx/` and
//! `corpus/` (184 modules, the 4 `-rdc` ones built with `ptxas -c`; 885 functions, 190,152
//! instructions: identical on all; 4 to 6 minutes here, nvdisasm starting in 0.6 s per module).
//! Without ptxas or nvdisasm the test says SKIPPED where the harness does not capture it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use warpscope_sass::{LineBranches, LineSass, Listing, parse, read_cubin};

/// Modules compared by default, and why: the test data of `tools.rs`; a one-kernel module; an
/// inlined device function (rows of call site and callee at one address); an indirect `BRX`;
/// `BRA.U.ANY` and `BRA.DIV`; `BRA P1, target` predicate operands with `BRA.DIV`; 40 functions
/// with `CALL`/`RET` between them; the largest real-world module (213 functions).
const SAMPLE: &[&str] = &[
    "crates/sass/tests/data/lowering.ptx",
    "validation/realworld/ptx/cs_vectorAdd.ptx",
    "validation/realworld/ptx/cs_BlackScholes.ptx",
    "validation/realworld/ptx/hb_jenkins-hash.ptx",
    "validation/realworld/ptx/cs_globalToShmemAsyncCopy.ptx",
    "validation/realworld/ptx/cs_conjugateGradientMultiBlockCG.ptx",
    "validation/realworld/ptx/cs_threadFenceReduction.ptx",
    "validation/realworld/ptx/cs_reduction.ptx",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn modules() -> Vec<PathBuf> {
    // The real-world modules are committed packed (validation/realworld/ptx.tar.gz).
    warpscope_realworld::packed::ptx_dir(&root()).expect("real-world PTX");
    if std::env::var_os("WARPSCOPE_SASS_CUBIN_ALL").is_none_or(|v| v.is_empty()) {
        return SAMPLE.iter().map(|m| root().join(m)).collect();
    }
    let mut all = Vec::new();
    for dir in ["validation/realworld/ptx", "corpus"] {
        let Ok(rd) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        for e in rd.flatten() {
            if e.path().extension().is_some_and(|x| x == "ptx") {
                all.push(e.path());
            }
        }
    }
    all.sort();
    all
}

/// nvdisasm's listing, with each ``(.L_x_N)`` target replaced by the offset of its label (as
/// the reader prints targets) and BRX's `(*"BRANCH_TARGETS ..."*)` comment dropped.
fn resolve_labels(text: &str) -> String {
    // Labels are per function section; a label line precedes the instruction it names.
    let mut labels: BTreeMap<(usize, String), u32> = BTreeMap::new();
    let mut pending: Vec<String> = Vec::new();
    let mut func = 0usize;
    for l in text.lines() {
        let t = l.trim();
        if t.starts_with(".text.") && t.ends_with(':') {
            func += 1;
        } else if t.starts_with(".L_x_") && t.ends_with(':') {
            pending.push(t.trim_end_matches(':').to_string());
        } else if let Some(rest) = t.strip_prefix("/*")
            && let Some((off, _)) = rest.split_once("*/")
            && let Ok(off) = u32::from_str_radix(off, 16)
        {
            for p in pending.drain(..) {
                labels.insert((func, p), off);
            }
        }
    }
    let mut out = String::new();
    let mut func = 0usize;
    for l in text.lines() {
        let t = l.trim();
        if t.starts_with(".text.") && t.ends_with(':') {
            func += 1;
        }
        let mut line = match l.find("(*\"BRANCH_TARGETS") {
            Some(i) => format!("{} ;", l[..i].trim_end()),
            None => l.to_string(),
        };
        while let Some(i) = line.find("`(.L_x_") {
            let Some(j) = line[i..].find(')') else { break };
            let name = &line[i + 2..i + j];
            let off = labels
                .get(&(func, name.to_string()))
                .map_or_else(|| name.to_string(), |o| format!("{o:#x}"));
            line = format!("{}{}{}", &line[..i], off, &line[i + j + 1..]);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn is_branch(opcode: &str) -> bool {
    matches!(opcode.split('.').next(), Some("BRA" | "BRX" | "JMX"))
}

#[derive(Default)]
struct Tally {
    modules: usize,
    functions: usize,
    instructions: usize,
    splitting: usize,
    differences: Vec<String>,
}

fn table(t: &LineBranches, l: &Listing) -> BTreeMap<(String, String, u32), LineSass> {
    let mut out = BTreeMap::new();
    for f in &l.functions {
        for i in &f.instructions {
            if let Some((file, line)) = i.source {
                let path = &l.files[file as usize];
                let v = t
                    .line(&f.name, path, line)
                    .expect("a line of the listing is in its table");
                out.insert((f.name.clone(), path.clone(), line), v);
            }
        }
    }
    out
}

fn compare(name: &str, nv: &Listing, cu: &Listing, tally: &mut Tally) {
    let mut diff = |s: String| {
        if tally.differences.len() < 60 {
            tally.differences.push(format!("{name}: {s}"));
        } else if tally.differences.len() == 60 {
            tally.differences.push("...".to_string());
        }
    };
    let nv_names: Vec<&str> = nv.functions.iter().map(|f| f.name.as_str()).collect();
    let cu_names: Vec<&str> = cu.functions.iter().map(|f| f.name.as_str()).collect();
    let mut a = nv_names.clone();
    let mut b = cu_names.clone();
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        diff(format!("functions {nv_names:?} vs {cu_names:?}"));
        return;
    }
    for f in &nv.functions {
        let Some(g) = cu.functions.iter().find(|g| g.name == f.name) else {
            continue;
        };
        tally.functions += 1;
        if f.instructions.len() != g.instructions.len() {
            diff(format!(
                "{}: {} instructions vs {}",
                f.name,
                f.instructions.len(),
                g.instructions.len()
            ));
            continue;
        }
        for (x, y) in f.instructions.iter().zip(&g.instructions) {
            tally.instructions += 1;
            tally.splitting += usize::from(x.splits_lanes());
            let base = |o: &str| o.split('.').next().unwrap_or("").to_string();
            let pos = |l: &Listing, s: Option<(u32, u32)>| {
                s.map(|(f, line)| (l.files[f as usize].clone(), line))
            };
            let same_form = if is_branch(&x.opcode) {
                x.opcode == y.opcode && x.operands == y.operands
            } else {
                base(&x.opcode) == base(&y.opcode)
            };
            if x.offset != y.offset
                || x.guard != y.guard
                || !same_form
                || x.splits_lanes() != y.splits_lanes()
                || pos(nv, x.source) != pos(cu, y.source)
            {
                diff(format!(
                    "{} {:#06x}: nvdisasm {:?} {} {} at {:?}, cubin {:?} {} {} at {:?}",
                    f.name,
                    x.offset,
                    x.guard,
                    x.opcode,
                    x.operands,
                    pos(nv, x.source),
                    y.guard,
                    y.opcode,
                    y.operands,
                    pos(cu, y.source)
                ));
            }
        }
    }
    let tn = LineBranches::new(nv, "t");
    let tc = LineBranches::new(cu, "t");
    let (a, b) = (table(&tn, nv), table(&tc, cu));
    if a != b {
        let only: Vec<_> = a
            .iter()
            .filter(|(k, v)| b.get(*k) != Some(v))
            .take(3)
            .collect();
        diff(format!("line tables differ, e.g. {only:?}"));
    }
}

fn run(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().expect("runs");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn cubin_reader_matches_nvdisasm() {
    let (Some(ptxas), Some(nvdisasm)) = (
        warpscope_frontend::toolchain::find_cuda_tool("ptxas"),
        warpscope_frontend::toolchain::find_cuda_tool("nvdisasm"),
    ) else {
        let _ = writeln!(
            std::io::stderr(),
            "\nSKIPPED warpscope-sass cubin reader vs nvdisasm: ptxas or nvdisasm not found \
             (pip install nvidia-cuda-nvcc==13.0.88 nvidia-cuda-nvdisasm)\n"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("warpscope-sass-cubin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cubin = dir.join("m.cubin");
    let mut tally = Tally::default();
    let mut not_built = Vec::new();
    for m in modules() {
        let name = m
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut cmd = Command::new(&ptxas);
        cmd.args(["-arch=sm_90", "-O3", "-lineinfo", "-o"])
            .arg(&cubin)
            .arg(&m);
        // As `compile` does: a module calling another's device functions (-rdc) is built
        // relocatable.
        let built = run(&mut cmd).or_else(|| run(cmd.arg("-c")));
        if built.is_none() {
            not_built.push(name);
            continue;
        }
        let bytes = std::fs::read(&cubin).expect("cubin");
        let text = run(Command::new(&nvdisasm).args(["-g", "-c"]).arg(&cubin))
            .expect("nvdisasm reads what ptxas wrote");
        let nv = parse(&resolve_labels(&text));
        let cu = read_cubin(&bytes).expect("the reader reads what ptxas wrote");
        tally.modules += 1;
        compare(&name, &nv, &cu, &mut tally);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = writeln!(
        std::io::stderr(),
        "cubin reader vs nvdisasm: {} modules, {} functions, {} instructions ({} lane-splitting \
         branches), {} differences; ptxas did not build {:?}",
        tally.modules,
        tally.functions,
        tally.instructions,
        tally.splitting,
        tally.differences.len(),
        not_built
    );
    assert!(tally.modules > 0, "no module compared");
    assert!(
        tally.differences.is_empty(),
        "differences:\n{}",
        tally.differences.join("\n")
    );
}

/// Garbage and every truncation of a real cubin give an error or a listing, never a panic.
#[test]
fn damaged_cubins_are_errors_not_panics() {
    let path = root().join("crates/sass/tests/data/lowering.cubin");
    let good = std::fs::read(&path).expect("tests/data/lowering.cubin");
    let full = read_cubin(&good).expect("reads");
    assert!(full.functions.len() >= 3);
    for n in 0..good.len() {
        let _ = read_cubin(&good[..n]);
    }
    assert!(read_cubin(&good[..good.len() / 2]).is_err());
    assert!(read_cubin(b"").is_err());
    assert!(read_cubin(b"\x7fELF").is_err());
    // Bytes flipped one at a time across the headers and the line table, and a simple
    // deterministic stream of garbage after a valid ELF header.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for i in 0..good.len().min(20_000) {
        let mut bad = good.clone();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bad[i] ^= (state as u8) | 1;
        let _ = read_cubin(&bad);
    }
    let mut junk = good[..64].to_vec();
    for _ in 0..4096 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        junk.push(state as u8);
    }
    let _ = read_cubin(&junk);
}
