//! Which kernels' results can depend on the order in which SMs run, found from the PTX.
//!
//! SMs share only global memory and the `printf` buffer. A kernel whose blocks do not
//! communicate through them computes the same thing whatever the order its SMs run in, so
//! its SMs may run in parallel on host threads without changing a byte of the result. A
//! kernel whose blocks do communicate must run on the emulated schedule
//! ([`crate::Schedule`]), so that the order of its atomics is the emulated SMs' and not the
//! host threads'. [`order_dependence`] answers which, soundly for programs without data
//! races: every way the PTX memory model lets blocks communicate is an atomic, a
//! `.volatile`/`.relaxed`/`.acquire`/`.release` access or a fence, and it treats each as
//! communication unless it cannot be:
//!
//! * `atom`/`red` on global or generic addresses, except the one kind whose outcome is the
//!   same in any order: an integer `add`/`and`/`or`/`xor`/`min`/`max` whose returned value is
//!   never read (a histogram bin, a counter read by a later launch);
//! * loads and stores with a memory-ordering qualifier (`.volatile`, `.relaxed`, `.acquire`,
//!   `.release`, ...) on global or generic addresses: flags polled by another block;
//! * `membar`/`fence` wider than a block (`membar.gl`, `fence.sc.gpu`, `.sys`, or no scope);
//! * `printf`: the order of lines printed by different SMs.
//!
//! Plain loads and stores racing between blocks (without atomics, fences or qualifiers) are
//! data races, undefined in CUDA; they are not detected here (`--deterministic` runs every
//! launch on the emulated schedule for such kernels).

use crate::program::{Builtin, Callee, Op, Program};
use warpscope_ir::effects::for_each_use;
use warpscope_ir::{Function, Module, Operand};
use warpscope_ptx::{AtomOp, MemOrder, Opcode, Scope, StateSpace, Type};

/// Why a kernel's result can depend on the order of its SMs: the first instruction found
/// that lets its blocks communicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderDependence {
    /// The function holding the instruction (the kernel or a device function it calls).
    pub function: String,
    /// What the instruction is and why it matters.
    pub what: String,
}

/// The first reason, if any, why `prog`'s result can depend on the order of its SMs (see
/// the module documentation). `module` is the module `prog` was translated from.
pub fn order_dependence(module: &Module, prog: &Program) -> Option<OrderDependence> {
    for code in &prog.funcs {
        let prints = code
            .ops
            .iter()
            .any(|i| matches!(&i.op, Op::Call(c) if c.callee == Callee::Builtin(Builtin::Vprintf)));
        if prints {
            return Some(OrderDependence {
                function: code.name.clone(),
                what: "`printf` (lines printed by different SMs interleave)".into(),
            });
        }
        if let Some(f) = module.funcs.get(code.func)
            && let Some(what) = communication(f)
        {
            return Some(OrderDependence {
                function: code.name.clone(),
                what,
            });
        }
    }
    None
}

/// Whether a state space (absent: generic) can reach memory other blocks see.
fn shared_between_blocks(space: Option<StateSpace>) -> bool {
    !matches!(
        space,
        Some(
            StateSpace::Shared
                | StateSpace::SharedCta
                | StateSpace::Local
                | StateSpace::Param
                | StateSpace::ParamEntry
                | StateSpace::ParamFunc
                | StateSpace::Const
                | StateSpace::Reg
                | StateSpace::Sreg
        )
    )
}

fn space_name(space: Option<StateSpace>) -> &'static str {
    match space {
        None | Some(StateSpace::Generic) => "generic",
        Some(StateSpace::Global) => "global",
        Some(StateSpace::SharedCluster) => "shared::cluster",
        Some(_) => "other",
    }
}

/// The first instruction of `f` through which its blocks can communicate.
fn communication(f: &Function) -> Option<String> {
    let mut read = None;
    for (_, i) in f.insts_in_order() {
        let d = &f.insts[i];
        let op = d.op;
        let space = d.mods.space;
        match op {
            Opcode::Atom | Opcode::Red | Opcode::RedAsync => {
                if !shared_between_blocks(space) {
                    continue;
                }
                let commutes = matches!(
                    d.mods.atom_op,
                    Some(
                        AtomOp::Add
                            | AtomOp::And
                            | AtomOp::Or
                            | AtomOp::Xor
                            | AtomOp::Min
                            | AtomOp::Max
                    )
                ) && d.mods.ty.is_some_and(is_integer);
                let read_back = op == Opcode::Atom && {
                    let used = read.get_or_insert_with(|| registers_read(f));
                    match d.operands.first() {
                        Some(Operand::Reg(r)) => used.contains(r),
                        Some(Operand::Vector(v)) => v
                            .iter()
                            .any(|o| matches!(o, Operand::Reg(r) if used.contains(r))),
                        _ => false,
                    }
                };
                if commutes && !read_back {
                    continue;
                }
                let name = if op == Opcode::Atom { "atom" } else { "red" };
                let why = if !commutes {
                    "its outcome depends on the order of atomics"
                } else {
                    "the value it returns depends on the order of atomics"
                };
                return Some(format!("`{name}` on {} memory ({why})", space_name(space)));
            }
            Opcode::MultimemRed | Opcode::CpReduceAsyncBulk | Opcode::CpReduceAsyncBulkTensor => {
                return Some(format!("`{}` (an asynchronous reduction)", op.name()));
            }
            Opcode::Ld | Opcode::St
                if shared_between_blocks(space)
                    && d.mods.order.is_some_and(|o| o != MemOrder::Weak) =>
            {
                let q = d.mods.order.map_or("", |o| o.as_str());
                return Some(format!(
                    "`{}.{q}` on {} memory (a flag another block may poll)",
                    op.name(),
                    space_name(space)
                ));
            }
            Opcode::Membar | Opcode::Fence
                if !matches!(d.mods.scope, Some(Scope::Cta | Scope::Cluster)) =>
            {
                return Some(format!(
                    "`{}` beyond the block (orders accesses other blocks see)",
                    op.name()
                ));
            }
            _ => {}
        }
    }
    None
}

fn is_integer(t: Type) -> bool {
    use Type::*;
    matches!(
        t,
        S8 | S16 | S32 | S64 | U8 | U16 | U32 | U64 | B8 | B16 | B32 | B64
    )
}

/// Every register some instruction of `f` reads.
fn registers_read(f: &Function) -> std::collections::HashSet<warpscope_ir::Reg> {
    let mut s = std::collections::HashSet::new();
    for (_, i) in f.insts_in_order() {
        for_each_use(&f.insts[i], |r| {
            s.insert(r);
        });
    }
    s
}
