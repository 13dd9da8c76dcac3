//! Which registers an instruction writes and reads.
//!
//! PTX writes destinations first. [`dest_count`] says how many leading operands are
//! destinations for each opcode; everything else (including address bases, vector elements
//! of sources, the guard predicate and call arguments) is read.

use crate::entities::Reg;
use crate::function::{AddrBase, InstData, Operand};
use warpscope_ptx::{Flags, Opcode};

/// Number of leading operands that are written.
pub fn dest_count(inst: &InstData) -> usize {
    use Opcode::*;
    match inst.op {
        // No destination.
        St
        | StAsync
        | StBulk
        | Red
        | RedAsync
        | Prefetch
        | Prefetchu
        | Bra
        | BrxIdx
        | Ret
        | Exit
        | Trap
        | Brkpt
        | Nanosleep
        | Pmevent
        | Membar
        | Fence
        | BarWarpSync
        | BarrierClusterArrive
        | BarrierClusterWait
        | CpAsync
        | CpAsyncCommitGroup
        | CpAsyncWaitGroup
        | CpAsyncWaitAll
        | CpAsyncMbarrierArrive
        | CpAsyncBulk
        | CpAsyncBulkTensor
        | CpAsyncBulkCommitGroup
        | CpAsyncBulkWaitGroup
        | CpAsyncBulkPrefetch
        | CpAsyncBulkPrefetchTensor
        | CpReduceAsyncBulk
        | CpReduceAsyncBulkTensor
        | TensormapReplace
        | TensormapCpFenceproxy
        | Discard
        | Applypriority
        | Sust
        | Sured
        | WmmaStoreD
        | Stmatrix
        | MbarrierInit
        | MbarrierInval
        | MbarrierExpectTx
        | MbarrierCompleteTx
        | MultimemSt
        | MultimemRed
        | GriddepcontrolLaunchDependents
        | GriddepcontrolWait
        | WgmmaFence
        | WgmmaCommitGroup
        | WgmmaWaitGroup
        | Setmaxnreg
        | Stackrestore => 0,
        // `bar.red` / `barrier.red` produce a value; plain barriers do not.
        Bar | Barrier => usize::from(inst.mods.has(Flags::RED)),
        // A call's destinations are its return list; see `call_returns`.
        Call => 0,
        _ => 1,
    }
}

/// Whether the destination is also read (accumulating instructions).
fn dest_is_read(inst: &InstData) -> bool {
    matches!(inst.op, Opcode::WgmmaMmaAsync | Opcode::WgmmaMmaAsyncSp)
}

fn regs_written(op: &Operand, f: &mut impl FnMut(Reg)) {
    match op {
        Operand::Reg(r) => f(*r),
        Operand::RegPair(a, b) => {
            f(*a);
            f(*b);
        }
        Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|o| regs_written(o, f)),
        _ => {}
    }
}

fn regs_read(op: &Operand, f: &mut impl FnMut(Reg)) {
    match op {
        Operand::Reg(r) | Operand::Not(r) => f(*r),
        Operand::RegPair(a, b) => {
            f(*a);
            f(*b);
        }
        Operand::Addr(AddrBase::Reg(r), _) => f(*r),
        Operand::Vector(v) | Operand::List(v) | Operand::AddrList(v) => {
            v.iter().for_each(|o| regs_read(o, f))
        }
        _ => {}
    }
}

/// Calls `f` for every register `inst` writes (vector elements and pairs included).
pub fn for_each_def(inst: &InstData, mut f: impl FnMut(Reg)) {
    if inst.op == Opcode::Call {
        if let Some(Operand::List(rets)) = inst.operands.first() {
            rets.iter().for_each(|o| regs_written(o, &mut f));
        }
        return;
    }
    for op in inst.operands.iter().take(dest_count(inst)) {
        regs_written(op, &mut f);
    }
}

/// Calls `f` for every register `inst` reads, the guard predicate first.
pub fn for_each_use(inst: &InstData, mut f: impl FnMut(Reg)) {
    if let Some(g) = inst.guard {
        f(g.reg);
    }
    if inst.op == Opcode::Call {
        // call (rets), target, (args), proto: the returns list is written, the rest read.
        let skip = usize::from(matches!(inst.operands.first(), Some(Operand::List(_))));
        for op in inst.operands.iter().skip(skip) {
            regs_read(op, &mut f);
        }
        return;
    }
    let n = dest_count(inst);
    for (i, op) in inst.operands.iter().enumerate() {
        if i >= n || dest_is_read(inst) {
            regs_read(op, &mut f);
        } else if let Operand::Vector(_) = op {
            // Destination vectors only write; nothing read.
        }
    }
}
