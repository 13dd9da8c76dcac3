//! Running a regrouping: the paper's *reference redirection*. `warpscope model --regroup ALG
//! --emit DIR` writes
//!
//! * `DIR/<module>.regrouped.ptx`: the module with every regrouped kernel given one more
//!   parameter, `ws_perm` (a `u32` array), and a prologue that computes the thread's global id
//!   `g = cta_linear × threads_per_block + thread_linear`, loads `v = ws_perm[g]`, and splits
//!   `v` back into a virtual `%tid.{x,y,z}` and `%ctaid.{x,y,z}`, which replace every read of
//!   the real ones in the kernel's body. Thread slot `g` therefore does the work of thread
//!   `v`: whatever the kernel derives from its thread and block ids, data indices included,
//!   now follows the permutation;
//! * `DIR/perm_<N>.bin`: the permutation of `[[launch]]` number `N` (raw little-endian `u32`);
//! * `DIR/spec.toml`: the original spec with the module replaced, one `ws_perm_<N>` buffer per
//!   launch of a regrouped kernel (initialised from its `perm_<N>.bin`) and that buffer
//!   appended to the launch's arguments. Saved buffers keep their names, so `warpscope run
//!   DIR/spec.toml` saves the same buffers, with the same contents, as the original spec.
//!
//! Kernels none of whose profiled warps diverged are left unchanged (nothing to regroup).
//! Like the paper's mechanism, this is only correct for kernels whose threads do not
//! communicate: kernels (or their callees) that use barriers, shared memory, warp shuffles,
//! votes or other warp collectives, atomics, `%laneid`/`%warpid`/lane masks, or whose callees
//! read the thread or block id, are left unchanged and listed as skipped with the reason.

use std::path::{Path, PathBuf};
use warpscope_emu::LaunchSpec;
use warpscope_ir::{FuncId, Module, Operand};
use warpscope_ptx::{Opcode, SpecialReg};

use crate::regroup::Algorithm;
use crate::{LaunchModel, machine};

/// The name of the added kernel parameter.
pub const PERM_PARAM: &str = "ws_perm";

/// What [`emit`] wrote.
#[derive(Clone, Debug)]
pub struct EmitReport {
    pub spec: PathBuf,
    pub module: PathBuf,
    /// PTX names of the kernels rewritten.
    pub rewritten: Vec<String>,
    /// Kernels with profiled launches that were left unchanged, and why.
    pub skipped: Vec<(String, String)>,
    /// Permutation files written.
    pub permutations: Vec<PathBuf>,
}

/// Why kernel `k` cannot be regrouped by reference redirection, if it cannot.
pub fn unsafe_reason(module: &Module, k: FuncId) -> Option<String> {
    for f in machine::kernel_functions(module, k) {
        let func = &module.funcs[f];
        let callee = f != k;
        for (_, i) in func.insts.iter() {
            let what = match i.op {
                Opcode::Bar | Opcode::Barrier | Opcode::BarWarpSync => Some("a barrier"),
                Opcode::Shfl => Some("a warp shuffle"),
                Opcode::Vote
                | Opcode::Match
                | Opcode::Activemask
                | Opcode::Redux
                | Opcode::Elect => Some("a warp collective"),
                Opcode::Atom | Opcode::Red => Some("an atomic"),
                Opcode::Ld | Opcode::St | Opcode::Ldu
                    if i.mods.space.is_some_and(|s| s.is_shared()) =>
                {
                    Some("shared memory")
                }
                _ => None,
            };
            if let Some(w) = what {
                return Some(format!(
                    "`{}` uses {w}: its threads may communicate, so regrouping could change its results",
                    func.name
                ));
            }
            for o in &i.operands {
                if let Operand::Special(r, _) = o {
                    match r {
                        SpecialReg::Laneid
                        | SpecialReg::Warpid
                        | SpecialReg::LanemaskEq
                        | SpecialReg::LanemaskLe
                        | SpecialReg::LanemaskLt
                        | SpecialReg::LanemaskGe
                        | SpecialReg::LanemaskGt => {
                            return Some(format!(
                                "`{}` reads a lane or warp id, which regrouping does not redirect",
                                func.name
                            ));
                        }
                        SpecialReg::Tid | SpecialReg::Ctaid if callee => {
                            return Some(format!(
                                "device function `{}` reads the thread or block id; only the kernel's own reads are redirected",
                                func.name
                            ));
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    None
}

/// Byte range of the balanced `open`…`close` group starting at `start` (which holds `open`),
/// ignoring `//` comments.
fn balanced(text: &str, start: usize, open: u8, close: u8) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Finds `.entry NAME` followed by `(`: the offset of the `(`.
fn find_entry(ptx: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = ptx[from..].find(".entry") {
        let at = from + p + ".entry".len();
        let rest = ptx[at..].trim_start();
        let skipped = ptx[at..].len() - rest.len();
        if let Some(after) = rest.strip_prefix(name) {
            let ok = after.bytes().next().is_none_or(|c| !is_ident(c));
            let after_t = after.trim_start();
            if ok && after_t.starts_with('(') {
                return Some(at + skipped + name.len() + (after.len() - after_t.len()));
            }
        }
        from = at;
    }
    None
}

const SPECIALS: [(&str, &str); 6] = [
    ("%tid.x", "%ws_tid_x"),
    ("%tid.y", "%ws_tid_y"),
    ("%tid.z", "%ws_tid_z"),
    ("%ctaid.x", "%ws_ctaid_x"),
    ("%ctaid.y", "%ws_ctaid_y"),
    ("%ctaid.z", "%ws_ctaid_z"),
];

const PROLOGUE: &str =
    "\t// warpscope model: reference redirection (thread slot g runs thread ws_perm[g])
\t.reg .b32 %ws_tid_x, %ws_tid_y, %ws_tid_z, %ws_ctaid_x, %ws_ctaid_y, %ws_ctaid_z;
\t.reg .b32 %ws_t<12>;
\t.reg .b64 %ws_d<3>;
\tmov.u32 %ws_t0, %ntid.x;
\tmov.u32 %ws_t1, %ntid.y;
\tmov.u32 %ws_t2, %ntid.z;
\tmov.u32 %ws_t3, %tid.z;
\tmov.u32 %ws_t4, %tid.y;
\tmad.lo.u32 %ws_t5, %ws_t3, %ws_t1, %ws_t4;
\tmov.u32 %ws_t4, %tid.x;
\tmad.lo.u32 %ws_t5, %ws_t5, %ws_t0, %ws_t4;
\tmul.lo.u32 %ws_t6, %ws_t0, %ws_t1;
\tmul.lo.u32 %ws_t6, %ws_t6, %ws_t2;
\tmov.u32 %ws_t7, %nctaid.x;
\tmov.u32 %ws_t8, %nctaid.y;
\tmov.u32 %ws_t3, %ctaid.z;
\tmov.u32 %ws_t4, %ctaid.y;
\tmad.lo.u32 %ws_t9, %ws_t3, %ws_t8, %ws_t4;
\tmov.u32 %ws_t4, %ctaid.x;
\tmad.lo.u32 %ws_t9, %ws_t9, %ws_t7, %ws_t4;
\tmad.lo.u32 %ws_t9, %ws_t9, %ws_t6, %ws_t5;
\tld.param.u64 %ws_d0, [ws_perm];
\tcvta.to.global.u64 %ws_d0, %ws_d0;
\tmul.wide.u32 %ws_d1, %ws_t9, 4;
\tadd.s64 %ws_d2, %ws_d0, %ws_d1;
\tld.global.nc.u32 %ws_t10, [%ws_d2];
\trem.u32 %ws_t5, %ws_t10, %ws_t6;
\tdiv.u32 %ws_t9, %ws_t10, %ws_t6;
\trem.u32 %ws_tid_x, %ws_t5, %ws_t0;
\tdiv.u32 %ws_t11, %ws_t5, %ws_t0;
\trem.u32 %ws_tid_y, %ws_t11, %ws_t1;
\tdiv.u32 %ws_tid_z, %ws_t11, %ws_t1;
\trem.u32 %ws_ctaid_x, %ws_t9, %ws_t7;
\tdiv.u32 %ws_t11, %ws_t9, %ws_t7;
\trem.u32 %ws_ctaid_y, %ws_t11, %ws_t8;
\tdiv.u32 %ws_ctaid_z, %ws_t11, %ws_t8;
";

/// Rewrites entry `name` of `ptx` for reference redirection (see the module docs).
pub fn rewrite_kernel(ptx: &str, name: &str) -> Result<String, String> {
    let open = find_entry(ptx, name).ok_or_else(|| format!("no `.entry {name}(` in the PTX"))?;
    let close = balanced(ptx, open, b'(', b')')
        .ok_or_else(|| format!("the parameter list of `{name}` is not closed"))?;
    let params = &ptx[open + 1..close];
    let has_params = !params.trim().is_empty();
    let body_open = close
        + ptx[close..]
            .find('{')
            .ok_or_else(|| format!("`{name}` has no body"))?;
    let body_close = balanced(ptx, body_open, b'{', b'}')
        .ok_or_else(|| format!("the body of `{name}` is not closed"))?;
    let body = &ptx[body_open + 1..body_close];
    // replace %tid.* / %ctaid.* reads
    let mut new_body = String::with_capacity(body.len() + PROLOGUE.len());
    let bytes = body.as_bytes();
    let mut i = 0;
    'scan: while i < bytes.len() {
        if bytes[i] == b'%' {
            for (from, to) in SPECIALS {
                if body[i..].starts_with(from)
                    && bytes.get(i + from.len()).is_none_or(|&c| !is_ident(c))
                {
                    new_body.push_str(to);
                    i += from.len();
                    continue 'scan;
                }
            }
            for bare in ["%tid", "%ctaid"] {
                if body[i..].starts_with(bare)
                    && bytes
                        .get(i + bare.len())
                        .is_none_or(|&c| !is_ident(c) && c != b'.')
                {
                    return Err(format!(
                        "`{name}` reads `{bare}` as a vector; only its .x/.y/.z components can be redirected"
                    ));
                }
            }
        }
        let ch = body[i..].chars().next().expect("in bounds");
        new_body.push(ch);
        i += ch.len_utf8();
    }
    // the prologue goes after the body's leading declarations
    let mut insert_at = 0;
    let mut off = 0;
    for line in new_body.split_inclusive('\n') {
        let t = line.trim();
        if t.is_empty()
            || t.starts_with("//")
            || t.starts_with(".reg")
            || t.starts_with(".local")
            || t.starts_with(".shared")
        {
            off += line.len();
            insert_at = off;
            continue;
        }
        break;
    }
    let mut out = String::with_capacity(ptx.len() + PROLOGUE.len() + 64);
    out.push_str(&ptx[..close]);
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push_str(if has_params { ",\n" } else { "\n" });
    out.push_str("\t.param .u64 .ptr .global .align 4 ");
    out.push_str(PERM_PARAM);
    out.push('\n');
    out.push_str(&ptx[close..=body_open]);
    if !new_body[..insert_at].ends_with('\n') {
        new_body.insert(insert_at, '\n');
        insert_at += 1;
    }
    out.push_str(&new_body[..insert_at]);
    out.push_str(PROLOGUE);
    out.push_str(&new_body[insert_at..]);
    out.push_str(&ptx[body_close..]);
    Ok(out)
}

/// `[[launch]]` entry of each launch index (repeats expanded as the emulator runs them).
pub fn launch_entries(spec: &LaunchSpec) -> Vec<usize> {
    let mut v = Vec::new();
    for (li, l) in spec.launches.iter().enumerate() {
        match &l.repeat {
            None => v.push(li),
            Some(r) => {
                let step = r.step.max(1) as usize;
                for _ in (r.from..=r.to).step_by(step) {
                    v.push(li);
                }
            }
        }
    }
    v
}

/// Writes the regrouped launch of `alg` into `dir` (see the module docs).
pub fn emit(
    spec: &LaunchSpec,
    ptx: &str,
    module: &Module,
    launches: &[LaunchModel],
    alg: Algorithm,
    dir: &Path,
) -> Result<EmitReport, String> {
    let spec_text = std::fs::read_to_string(&spec.path)
        .map_err(|e| format!("cannot read {}: {e}", spec.path.display()))?;
    let mut table: toml::Table = spec_text
        .parse()
        .map_err(|e| format!("{}: {e}", spec.path.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let entries = launch_entries(spec);
    // kernels with profiled launches, and the order of each entry's first profiled launch
    let mut chosen: Vec<Option<&[u32]>> = vec![None; spec.launches.len()];
    let mut kernels: Vec<String> = Vec::new();
    let mut divergent: Vec<String> = Vec::new();
    for l in launches {
        let Some(&e) = entries.get(l.launch as usize) else {
            continue;
        };
        let Some((_, order)) = l.orders.iter().find(|(a, _)| *a == alg) else {
            continue;
        };
        let name = spec.launches[e].kernel.clone();
        if l.divergent_warps > 0 && !divergent.contains(&name) {
            divergent.push(name.clone());
        }
        if !kernels.contains(&name) {
            kernels.push(name);
        }
        if chosen[e].is_none() {
            chosen[e] = Some(order);
        }
    }
    let mut rewritten_ptx = ptx.to_string();
    let mut report = EmitReport {
        spec: dir.join("spec.toml"),
        module: PathBuf::new(),
        rewritten: Vec::new(),
        skipped: Vec::new(),
        permutations: Vec::new(),
    };
    for k in &kernels {
        let Some(fid) = module.func_by_name(k).or_else(|| {
            module
                .kernels()
                .find(|(_, f)| warpscope_profile::model::display_name(&f.name) == *k)
                .map(|(id, _)| id)
        }) else {
            report
                .skipped
                .push((k.clone(), "not found in the module".into()));
            continue;
        };
        let ptx_name = module.funcs[fid].name.clone();
        if !divergent.contains(k) {
            report.skipped.push((
                ptx_name,
                "no warp of its profiled launches diverged: nothing to regroup".into(),
            ));
            continue;
        }
        if let Some(why) = unsafe_reason(module, fid) {
            report.skipped.push((ptx_name, why));
            continue;
        }
        rewritten_ptx = rewrite_kernel(&rewritten_ptx, &ptx_name)?;
        report.rewritten.push(ptx_name);
    }
    let stem = spec
        .module
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into());
    let module_name = format!("{stem}.regrouped.ptx");
    report.module = dir.join(&module_name);
    std::fs::write(&report.module, &rewritten_ptx)
        .map_err(|e| format!("cannot write {}: {e}", report.module.display()))?;
    table.insert("module".into(), toml::Value::String(module_name));
    // file inits are relative to the original spec: make them absolute
    let spec_dir = spec.path.parent().unwrap_or(Path::new("."));
    let spec_dir = std::fs::canonicalize(spec_dir).unwrap_or_else(|_| spec_dir.to_path_buf());
    if let Some(toml::Value::Table(bufs)) = table.get_mut("buffer") {
        for (_, b) in bufs.iter_mut() {
            if let Some(toml::Value::Table(init)) = b.get_mut("init")
                && let Some(toml::Value::String(p)) = init.get_mut("file")
                && Path::new(p.as_str()).is_relative()
            {
                *p = spec_dir.join(&*p).display().to_string();
            }
        }
    }
    let rewritten_names: Vec<&str> = report.rewritten.iter().map(String::as_str).collect();
    let mut new_bufs = Vec::new();
    if let Some(toml::Value::Array(ls)) = table.get_mut("launch") {
        for (e, l) in ls.iter_mut().enumerate() {
            let Some(entry) = spec.launches.get(e) else {
                continue;
            };
            let Some(fid) = module.func_by_name(&entry.kernel).or_else(|| {
                module
                    .kernels()
                    .find(|(_, f)| warpscope_profile::model::display_name(&f.name) == entry.kernel)
                    .map(|(id, _)| id)
            }) else {
                continue;
            };
            if !rewritten_names.contains(&module.funcs[fid].name.as_str()) {
                continue;
            }
            let threads: u64 = entry
                .grid
                .iter()
                .chain(&entry.block)
                .map(|&x| u64::from(x))
                .product();
            let perm: Vec<u32> = match chosen[e] {
                Some(o) if o.len() as u64 == threads => o.to_vec(),
                _ => (0..threads as u32).collect(),
            };
            let file = format!("perm_{e}.bin");
            let bytes: Vec<u8> = perm.iter().flat_map(|v| v.to_le_bytes()).collect();
            let path = dir.join(&file);
            std::fs::write(&path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            report.permutations.push(path);
            let buf = format!("ws_perm_{e}");
            if let Some(toml::Value::Array(args)) = l.get_mut("args") {
                let mut a = toml::Table::new();
                a.insert("buffer".into(), toml::Value::String(buf.clone()));
                args.push(toml::Value::Table(a));
            } else if let Some(t) = l.as_table_mut() {
                let mut a = toml::Table::new();
                a.insert("buffer".into(), toml::Value::String(buf.clone()));
                t.insert(
                    "args".into(),
                    toml::Value::Array(vec![toml::Value::Table(a)]),
                );
            }
            new_bufs.push((buf, threads, file));
        }
    }
    if !new_bufs.is_empty() {
        let bufs = table
            .entry("buffer")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(bufs) = bufs {
            for (name, len, file) in new_bufs {
                let mut b = toml::Table::new();
                b.insert("type".into(), toml::Value::String("u32".into()));
                b.insert("len".into(), toml::Value::Integer(len as i64));
                let mut init = toml::Table::new();
                init.insert("file".into(), toml::Value::String(file));
                b.insert("init".into(), toml::Value::Table(init));
                bufs.insert(name, toml::Value::Table(b));
            }
        }
    }
    let text = format!(
        "# Regrouped ({}) by `warpscope model --regroup {} --emit`, from {}.\n{}",
        alg.name(),
        alg.name(),
        spec.path.display(),
        toml::to_string(&table).map_err(|e| format!("cannot write the spec: {e}"))?
    );
    std::fs::write(&report.spec, text)
        .map_err(|e| format!("cannot write {}: {e}", report.spec.display()))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = ".version 9.0\n.target sm_90\n.address_size 64\n\n\
        .visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0\n)\n{\n\
        \t.reg .b32 \t%r<4>;\n\t.reg .b64 \t%rd<3>;\n\n\
        \tld.param.u64 \t%rd1, [k_param_0];\n\tmov.u32 \t%r1, %ctaid.x;\n\
        \tmov.u32 \t%r2, %ntid.x;\n\tmov.u32 \t%r3, %tid.x;\n\tret;\n}\n";

    #[test]
    fn the_rewrite_adds_the_parameter_and_redirects_ids() {
        let out = rewrite_kernel(PTX, "k").unwrap();
        assert!(out.contains("k_param_0,\n\t.param .u64 .ptr .global .align 4 ws_perm\n)"));
        assert!(out.contains("mov.u32 \t%r1, %ws_ctaid_x;"));
        assert!(out.contains("mov.u32 \t%r3, %ws_tid_x;"));
        assert!(out.contains("mov.u32 \t%r2, %ntid.x;"));
        // the prologue follows the declarations
        let decl = out.find(".reg .b64 \t%rd<3>;").unwrap();
        let pro = out.find("// warpscope model").unwrap();
        let first = out.find("ld.param.u64 \t%rd1").unwrap();
        assert!(decl < pro && pro < first);
        // parses
        let (_, errors) = warpscope_ptx::parse(&out);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn missing_kernels_and_vector_reads_are_errors() {
        assert!(
            rewrite_kernel(PTX, "nope")
                .unwrap_err()
                .contains("no `.entry nope(")
        );
        let bad = PTX.replace("%tid.x", "%tid");
        assert!(
            rewrite_kernel(&bad, "k")
                .unwrap_err()
                .contains("as a vector")
        );
    }
}
