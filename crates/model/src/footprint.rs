//! Which global loads of a kernel the L1 serves (the H100 estimate's fourth version).
//!
//! A global load whose address is a kernel pointer parameter plus offsets reads the buffer the
//! launch passes in that parameter. When the buffers read this way fit together in the L1
//! that the SM's resident blocks leave free (its 256 KB, less their shared memory and local
//! tables), every SM reads each of them from the L2 once and finds it in the L1 from then on:
//! the loads cost L1 sectors and the L1-hit latency, not L2 bandwidth and the L2's latency.
//! Measured on the H100 (`scripts/h100/model_v4rates.cu`, `wv_gather`): a table gathered at 32
//! sectors per request reads at 3.98 sectors per clock per SM (the L1's 4) up to 192 KB, 3.82
//! at 256 KB, and at L2 rates beyond (1.98 at 512 KB, 1.14 at 2 MB).
//!
//! The base is found from the PTX's reaching definitions: the address register of an
//! `ld.global` (not `.cg`/`.cs`/`.cv`, which bypass or evict the L1) is followed through
//! `cvta`, `mov` and 64-bit `add`/`sub`/`mad.wide` operands to `ld.param` of one parameter; a
//! load whose address may come from two parameters, or from none, is left to the L2.

use std::collections::{HashMap, HashSet};
use warpscope_ir::{AddrBase, DefUse, FuncId, Function, Inst, Module, Operand, Reg};
use warpscope_ptx::{CacheOp, Opcode, StateSpace};

/// The global loads of one function that the L1 serves (their buffer stays in it; see
/// `l1_resident_loads` in the crate root).
#[derive(Clone, Debug, Default)]
pub struct L1Loads {
    pub func: Option<FuncId>,
    pub loads: std::collections::HashSet<Inst>,
}

impl L1Loads {
    pub(crate) fn has(&self, f: FuncId, i: Inst) -> bool {
        self.func == Some(f) && self.loads.contains(&i)
    }
}

/// A 64-bit operation (pointer-sized).
fn wide(d: &warpscope_ir::InstData) -> bool {
    d.mods.ty.is_some_and(|t| t.size_bytes() == 8)
}

/// The registers an instruction reads as plain sources.
fn reg_sources(d: &warpscope_ir::InstData) -> impl Iterator<Item = Reg> + '_ {
    d.operands.iter().skip(1).filter_map(|o| match o {
        Operand::Reg(s) => Some(*s),
        _ => None,
    })
}

/// The kernel parameter (by index) the pointer in `r`, read by `at`, is derived from, if
/// exactly one.
fn base_param(func: &Function, du: &DefUse, at: Inst, r: Reg) -> Option<u32> {
    let mut found: HashSet<u32> = HashSet::new();
    let mut seen: HashSet<(Inst, Reg)> = HashSet::new();
    let mut work = vec![(at, r)];
    while let Some((i, r)) = work.pop() {
        if seen.len() > 256 {
            return None;
        }
        if !seen.insert((i, r)) {
            continue;
        }
        for &d in du.reaching(i, r) {
            let di = du.def(d).inst?;
            let data = &func.insts[di];
            match data.op {
                Opcode::Ld if data.mods.space == Some(StateSpace::Param) && wide(data) => {
                    let p = data.operands.iter().find_map(|o| match o {
                        Operand::Addr(AddrBase::Param(p), _) | Operand::Param(p) => Some(*p),
                        _ => None,
                    })?;
                    found.insert(p);
                }
                Opcode::Mov if matches!(data.operands.get(1), Some(Operand::Param(_))) => {
                    if let Some(Operand::Param(p)) = data.operands.get(1) {
                        found.insert(*p);
                    }
                }
                Opcode::Cvta => work.extend(reg_sources(data).map(|s| (di, s))),
                Opcode::Mov | Opcode::Add | Opcode::Sub | Opcode::Mad if wide(data) => {
                    // 64-bit pointer arithmetic: follow the register sources (an index
                    // computed from 32-bit values reaches no parameter and adds nothing)
                    work.extend(reg_sources(data).map(|s| (di, s)));
                }
                _ => {}
            }
        }
    }
    (found.len() == 1).then(|| *found.iter().next().expect("one"))
}

/// The loads of kernel `k` that the L1 serves, and the bytes of the buffers they read (each
/// SM's first touch of them comes from the L2). `param_bytes[i]`: the bytes of the buffer the
/// launch passes as parameter `i` (from that argument's offset to the buffer's end), `None`
/// for a scalar; `capacity`: the L1 bytes the SM's resident blocks leave for global data.
/// Buffers are admitted smallest first while they fit together.
pub fn l1_resident_loads(
    module: &Module,
    k: FuncId,
    param_bytes: &[Option<f64>],
    capacity: f64,
) -> (L1Loads, f64) {
    let func = &module.funcs[k];
    let mut out = L1Loads {
        func: Some(k),
        ..L1Loads::default()
    };
    if capacity <= 0.0 {
        return (out, 0.0);
    }
    let du = DefUse::compute(func, &warpscope_ir::ControlFlowGraph::with_function(func));
    let mut by_param: HashMap<u32, Vec<Inst>> = HashMap::new();
    for (_, data) in func.blocks.iter() {
        for &i in &data.insts {
            let d = &func.insts[i];
            if !matches!(d.op, Opcode::Ld | Opcode::Ldu)
                || d.mods.space != Some(StateSpace::Global)
                || matches!(d.mods.cache, Some(CacheOp::Cg | CacheOp::Cs | CacheOp::Cv))
            {
                continue;
            }
            let base = d.operands.iter().find_map(|o| match o {
                Operand::Addr(AddrBase::Reg(r), _) => Some(*r),
                _ => None,
            });
            if let Some(p) = base.and_then(|r| base_param(func, &du, i, r)) {
                by_param.entry(p).or_default().push(i);
            }
        }
    }
    let mut bufs: Vec<(u32, f64)> = by_param
        .keys()
        .filter_map(|&p| {
            param_bytes
                .get(p as usize)
                .copied()
                .flatten()
                .map(|b| (p, b))
        })
        .collect();
    bufs.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let mut used = 0.0;
    for (p, bytes) in bufs {
        if used + bytes > capacity {
            break;
        }
        used += bytes;
        out.loads.extend(by_param[&p].iter().copied());
    }
    (out, used)
}
