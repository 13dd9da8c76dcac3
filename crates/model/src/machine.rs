//! The machine the estimates are for: the H100's SM count and per-SM limits, and how many
//! blocks of a kernel fit on one SM (the occupancy the scheduled metric's dispatch uses).
//!
//! Registers per thread come from `ptxas -v` when a CUDA toolkit is found (warpscope-frontend's
//! nvcc discovery; `ptxas` sits beside `nvcc`), otherwise from the emulator's estimate (live
//! 32-bit registers by backward liveness, rounded up to a multiple of 8, at least 16), and the
//! output says which.

use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use warpscope_emu::SmLimits;
use warpscope_ir::{FuncId, Module, Operand};
use warpscope_ptx::StateSpace;

/// SMs of an H100 SXM.
pub const H100_SMS: u32 = 132;

/// Where a kernel's registers-per-thread figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegSource {
    /// `ptxas -v` for sm_90.
    Ptxas,
    /// The emulator's liveness estimate (no ptxas found, or it failed).
    Estimate,
    /// Given with `--regs`.
    Given,
}

impl RegSource {
    pub fn as_str(self) -> &'static str {
        match self {
            RegSource::Ptxas => "ptxas -v",
            RegSource::Estimate => "estimate (no ptxas)",
            RegSource::Given => "--regs",
        }
    }
}

/// Occupancy of one kernel at one block size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Occupancy {
    pub blocks_per_sm: u32,
    pub regs_per_thread: u32,
    pub regs_from: RegSource,
    /// Static plus dynamic shared memory per block (bytes).
    pub shared_per_block: u32,
    /// The limit that binds: threads, warps, blocks, registers or shared memory.
    pub limiter: &'static str,
}

/// Blocks of `threads` threads using `regs` registers per thread and `shared` bytes of shared
/// memory that fit on one SM with limits `l`.
pub fn blocks_per_sm(l: &SmLimits, threads: u32, regs: u32, shared: u32) -> (u32, &'static str) {
    let warps = threads.div_ceil(32).max(1);
    let regs_per_warp = (regs.clamp(1, 255) * 32).div_ceil(l.reg_unit) * l.reg_unit;
    let by = [
        ("threads", l.max_threads / (warps * 32)),
        ("warps", l.max_warps / warps),
        ("blocks", l.max_blocks),
        ("registers", l.regs / (regs_per_warp * warps)),
        (
            "shared memory",
            l.shared / (shared + l.reserved_shared_per_block),
        ),
    ];
    let (name, n) = by
        .iter()
        .min_by_key(|(_, n)| *n)
        .copied()
        .unwrap_or(("blocks", 1));
    (n.max(1), name)
}

/// Kernel `k` and every function it may call.
pub fn kernel_functions(module: &Module, k: FuncId) -> Vec<FuncId> {
    let cg = warpscope_ir::CallGraph::with_module(module);
    warpscope_profile::observe::reachable(module, &cg, k)
}

/// Static shared memory (bytes) of the `.shared` variables kernel `k` and its callees name.
pub fn static_shared(module: &Module, k: FuncId) -> u32 {
    let mut seen = vec![false; module.globals.len()];
    let mut total = 0u64;
    for f in kernel_functions(module, k) {
        use cranelift_entity::EntityRef;
        let func = &module.funcs[f];
        for (_, i) in func.insts.iter() {
            for o in &i.operands {
                let g = match o {
                    Operand::Global(g) => *g,
                    Operand::Addr(warpscope_ir::AddrBase::Global(g), _) => *g,
                    _ => continue,
                };
                let v = &module.globals[g];
                if v.space.is_shared() && !std::mem::replace(&mut seen[g.index()], true) {
                    total += v.size.unwrap_or(0);
                }
            }
        }
        for (_, v) in func.locals.iter() {
            if v.space == StateSpace::Shared {
                total += v.size.unwrap_or(0);
            }
        }
    }
    total.min(u64::from(u32::MAX)) as u32
}

/// Bytes of local memory a thread of kernel `k` holds: the `.local` variables of the kernel and
/// of the device functions it calls (all of them at once: an upper bound of the stack).
pub fn local_bytes(module: &Module, k: FuncId) -> u64 {
    kernel_functions(module, k)
        .into_iter()
        .flat_map(|f| module.funcs[f].locals.values())
        .filter(|v| v.space == StateSpace::Local)
        .map(|v| v.size.unwrap_or(0))
        .sum()
}

/// What `ptxas -v -arch=sm_90` says of each entry of a module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PtxasInfo {
    /// Registers per thread.
    pub registers: HashMap<String, u32>,
    /// Bytes of stack frame per thread: 0 when ptxas kept every `.local` array in registers.
    pub stack_frame: HashMap<String, u32>,
    /// Eighth version: the SASS ptxas emits, counted per PTX basic block
    /// ([`ptxas_info_with_sass`]); `None` when not asked for or when ptxas could not build the
    /// rewritten module (then `sass_error` says why and the PTX lowering table is used).
    pub sass: Option<crate::throughput::SassCounts>,
    pub sass_error: Option<String>,
}

impl PtxasInfo {
    /// Where the H100 estimate's instruction counts come from, for the report.
    pub fn instruction_counts(info: Option<&PtxasInfo>) -> String {
        match info {
            Some(PtxasInfo { sass: Some(s), .. }) => format!(
                "SASS per PTX block ({}; {} SASS instructions attributed, {} not)",
                s.produced_by, s.attributed, s.unattributed
            ),
            Some(PtxasInfo {
                sass_error: Some(e),
                ..
            }) => format!("PTX lowering table (ptxas's SASS not read: {e})"),
            _ => "PTX lowering table (no ptxas found)".to_string(),
        }
    }
}

/// What [`ptxas_info`] gives, and the SASS ptxas emits for `module` (parsed from `ptx`)
/// counted per PTX basic block ([`crate::throughput::SassCounts`]), from one ptxas run: the
/// module with each instruction's `.loc` naming its own PTX line, compiled with `-v` (the
/// registers and stack frames are those of the same code). When that compile fails, a plain
/// `ptxas -v` run gives the registers and `sass_error` says why the SASS was not read. `None`
/// when no ptxas is found.
pub fn ptxas_info_with_sass(
    ptx: &str,
    module: &Module,
    explicit_nvcc: Option<&Path>,
) -> Option<PtxasInfo> {
    let ptxas = find_ptxas(explicit_nvcc)?;
    // nvdisasm beside ptxas prints the operands the dependence analysis reads (twelfth
    // version); without it the SASS is counted as before and the chains stay the PTX's
    let nvdisasm = ptxas.with_file_name("nvdisasm");
    let tools = if nvdisasm.exists() {
        warpscope_sass::Toolchain::new(ptxas, nvdisasm)
    } else {
        warpscope_sass::Toolchain::ptxas_only(ptxas)
    };
    let lines = crate::throughput::sass_counts::instruction_lines(module, ptx);
    match warpscope_sass::compile_by_ptx_line(&tools, ptx, &lines, "sm_90") {
        Ok(sass) => {
            let mut info = parse_ptxas_v(&sass.ptxas_info);
            let by = format!(
                "ptxas {}, sm_90",
                tools
                    .ptxas_version()
                    .unwrap_or_else(|| "(version unknown)".into())
            );
            info.sass = Some(crate::throughput::SassCounts::new(module, ptx, &sass, by));
            Some(info)
        }
        Err(e) => {
            let mut info = ptxas_info(ptx, explicit_nvcc)?;
            info.sass_error = Some(e.to_string());
            Some(info)
        }
    }
}

/// ptxas beside the nvcc `warpscope_frontend` finds (`None` for clang or when absent).
fn find_ptxas(explicit_nvcc: Option<&Path>) -> Option<std::path::PathBuf> {
    let nvcc = match warpscope_frontend::toolchain::find_compiler(explicit_nvcc).ok()? {
        warpscope_frontend::toolchain::Compiler::Nvcc(p) => p,
        warpscope_frontend::toolchain::Compiler::Clang(_) => return None,
    };
    let ptxas = nvcc.parent()?.join("ptxas");
    ptxas.exists().then_some(ptxas)
}

/// `ptxas -v -arch=sm_90` on a PTX text, or `None` when no ptxas is found or it fails.
pub fn ptxas_info(ptx: &str, explicit_nvcc: Option<&Path>) -> Option<PtxasInfo> {
    let ptxas = find_ptxas(explicit_nvcc)?;
    let dir = std::env::temp_dir().join(format!(
        "warpscope-model-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).ok()?;
    let input = dir.join("module.ptx");
    std::fs::write(&input, ptx).ok()?;
    let out = Command::new(&ptxas)
        .arg("-v")
        .arg("-arch=sm_90")
        .arg(&input)
        .arg("-o")
        .arg(dir.join("module.cubin"))
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let out = out.ok()?;
    if !out.status.success() {
        return None;
    }
    Some(parse_ptxas_v(&String::from_utf8_lossy(&out.stderr)))
}

/// Reads `Compiling entry function 'NAME'` … `N bytes stack frame` … `Used N registers` of
/// `ptxas -v` output.
pub fn parse_ptxas_v(text: &str) -> PtxasInfo {
    let mut out = PtxasInfo::default();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            current = rest.split('\'').next().map(str::to_string);
        } else if let Some(rest) = line.split("Function properties for ").nth(1) {
            let name = rest.trim();
            if !name.is_empty() && current.as_deref() != Some(name) {
                current = None;
            }
        } else if let Some(before) = line.split(" bytes stack frame").next()
            && line.contains(" bytes stack frame")
            && let Some(n) = before.split_whitespace().last()
            && let (Some(name), Ok(n)) = (&current, n.parse::<u32>())
        {
            out.stack_frame.insert(name.clone(), n);
        } else if let Some(rest) = line.split("Used ").nth(1)
            && let Some(n) = rest.split_whitespace().next()
            && rest.contains("registers")
            && let (Some(name), Ok(n)) = (&current, n.parse::<u32>())
        {
            out.registers.insert(name.clone(), n);
        }
    }
    out
}

/// The emulator's register estimate for kernel `k` (its and its callees' live registers).
pub fn estimated_registers(module: &Module, k: FuncId) -> u32 {
    let best = kernel_functions(module, k)
        .into_iter()
        .map(|f| warpscope_emu::translate::estimate_live_regs(&module.funcs[f]))
        .max()
        .unwrap_or(0);
    ((best + 4).div_ceil(8) * 8).clamp(16, 255)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::throughput::Unit;
    use crate::throughput::sass_counts::tests::{HOIST_PTX, block_labelled, module_of};

    /// `throughput::sass_counts`' hoisting test with ptxas itself (skipped, saying so, when no ptxas is found): the hash's
    /// SASS is charged to the block before the loop, so the loop block keeps its own work only.
    #[test]
    fn ptxas_hoists_the_invariant_hash_and_the_counts_follow() {
        let m = module_of(HOIST_PTX);
        let Some(info) = ptxas_info_with_sass(HOIST_PTX, &m, None) else {
            eprintln!("no ptxas found: skipped");
            return;
        };
        let c = info.sass.expect("ptxas compiled the module");
        // registers from the same compile (`-v` on the SASS run)
        assert!(info.registers.get("k").is_some_and(|&r| r > 0));
        assert!(c.hoisted >= 4, "hoisted {}", c.hoisted);
        let lb = c.block("k", block_labelled(&m, "$L1")).unwrap();
        // per iteration: the mad (IMAD), the counter, compare and branch; not the hash's
        // two multiplies
        assert!(lb.units[Unit::Imad as usize] <= 2.0, "{lb:?}");
        assert!(lb.issue <= 5.0, "{lb:?}");
        let entry = c.block("k", 0).unwrap();
        assert!(entry.units[Unit::Imad as usize] >= 2.0, "{entry:?}");
    }

    #[test]
    fn ptxas_v_output_is_read_per_entry() {
        let text = "ptxas info    : 0 bytes gmem\n\
            ptxas info    : Compiling entry function '_Z3fooPi' for 'sm_90'\n\
            ptxas info    : Function properties for _Z3fooPi\n\
            ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
            ptxas info    : Used 12 registers, used 0 barriers, 352 bytes cmem[0]\n\
            ptxas info    : Compiling entry function 'bar' for 'sm_90'\n\
            ptxas info    : Used 40 registers, 360 bytes cmem[0]\n";
        let m = parse_ptxas_v(text);
        assert_eq!(m.registers.get("_Z3fooPi"), Some(&12));
        assert_eq!(m.registers.get("bar"), Some(&40));
        assert_eq!(m.stack_frame.get("_Z3fooPi"), Some(&0));
        assert_eq!(m.stack_frame.get("bar"), None);
    }

    #[test]
    fn occupancy_follows_the_binding_limit() {
        let l = SmLimits::default();
        assert_eq!(blocks_per_sm(&l, 256, 32, 0), (8, "threads"));
        assert_eq!(blocks_per_sm(&l, 256, 128, 0), (2, "registers"));
        assert_eq!(blocks_per_sm(&l, 32, 16, 0), (32, "blocks"));
        assert_eq!(blocks_per_sm(&l, 128, 16, 100 * 1024).1, "shared memory");
    }
}
