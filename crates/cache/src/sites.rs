//! The memory instructions of a module: a dense id for each, what it does at the L1 (from
//! its cache operator, eviction hint and memory order, as the PTX ISA defines them), and
//! where it is (CUDA file:line from `.loc`, PTX line, instruction text).
//!
//! | PTX | at the L1 |
//! |---|---|
//! | `ld.global` / `.ca` / `.nc` (`__ldg`) | looked up; a miss allocates (most recently used) |
//! | `.cs`, `.lu`, `.L1::evict_first` | looked up; a miss allocates as least recently used (evicted first) |
//! | `.L1::no_allocate` | looked up; a miss does not allocate |
//! | `.cg`, `.cv`, `ld.volatile`, `ld.relaxed`/`.acquire` at `.gpu`/`.sys` scope | bypass the L1 (served by the L2) |
//! | `st.global` (any operator) | write-through: updates a present sector, allocates nothing |
//! | `atom`, `red` | performed at the L2 |
//!
//! Sources: PTX ISA §9.7.9.1 (cache operators: `.ca` caches at all levels, `.cg` at the L2
//! only, `.cs` streams with evict-first, `.lu` on global addresses is `.cs`, `.cv` fetches
//! again), §9.7.9.8 (`ld` eviction priorities and `.L1::no_allocate`), §9.7.9.9 (`ld.global.nc`
//! goes through the non-coherent texture path, which sm_70 and newer unify with the L1).

use cranelift_entity::EntityRef;
use warpscope_emu::AccessKind;
use warpscope_ir::{FuncId, Inst, Module};
use warpscope_ptx::LineIndex;
use warpscope_ptx::modifiers::{CacheOp, L1Evict, MemOrder, Scope};

use crate::grab::Op;
use crate::sector_cache::Insert;

/// Marks instructions that are not memory instructions in [`InstTable`]'s dense map.
const NO_ID: u32 = u32::MAX;

/// Where an instruction is, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteInfo {
    /// PTX name of the function holding it.
    pub function: String,
    pub file: Option<String>,
    pub line: u32,
    pub col: u32,
    pub ptx_line: u32,
    pub ptx_col: u32,
    /// The PTX instruction text.
    pub text: String,
}

/// How one instruction uses the L1, by access kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub load: Op,
}

/// Dense ids of a module's memory instructions.
#[derive(Clone, Debug, Default)]
pub struct InstTable {
    /// Per function index, per instruction index: the dense id or [`NO_ID`].
    ids: Vec<Vec<u32>>,
    pub policies: Vec<Policy>,
    pub sites: Vec<SiteInfo>,
    /// Per dense id, the (function, instruction).
    pub insts: Vec<(FuncId, Inst)>,
}

impl InstTable {
    /// Indexes every instruction of `module` that accesses memory; `ptx` is the module's text
    /// (for PTX lines and instruction text).
    pub fn new(module: &Module, ptx: Option<&str>) -> InstTable {
        let lines = ptx.map(LineIndex::new);
        let mut t = InstTable::default();
        for (fid, func) in module.funcs.iter() {
            let locs = func.effective_locs();
            let mut ids = vec![NO_ID; func.insts.len()];
            for (_, i) in func.insts_in_order() {
                let d = &func.insts[i];
                if d.mods.space.is_none() && !is_memory_opcode(d) {
                    continue;
                }
                ids[i.index()] = t.policies.len() as u32;
                t.policies.push(Policy {
                    load: load_op(&d.mods),
                });
                let (ptx_line, ptx_col) = lines
                    .as_ref()
                    .map(|l| l.line_col(d.span.start))
                    .map_or((0, 0), |p| (p.line, p.col));
                let text = ptx
                    .and_then(|p| p.get(d.span.start as usize..d.span.end as usize))
                    .unwrap_or("")
                    .trim()
                    .to_string();
                let loc = locs.get(&i).copied();
                let shown = loc.map(|l| match l.inlined_at {
                    // Code inlined from a header is shown at its call site.
                    Some((f, line, col))
                        if module
                            .file_name(l.file)
                            .is_some_and(warpscope_report::is_system_file) =>
                    {
                        (f, line, col)
                    }
                    _ => (l.file, l.line, l.col),
                });
                t.sites.push(SiteInfo {
                    function: func.name.clone(),
                    file: shown.and_then(|(f, _, _)| module.file_name(f).map(str::to_string)),
                    line: shown.map_or(0, |s| s.1),
                    col: shown.map_or(0, |s| s.2),
                    ptx_line,
                    ptx_col,
                    text,
                });
                t.insts.push((fid, i));
            }
            if t.ids.len() <= fid.index() {
                t.ids.resize(fid.index() + 1, Vec::new());
            }
            t.ids[fid.index()] = ids;
        }
        t
    }

    /// The dense id of an instruction, if it accesses memory.
    #[inline]
    pub fn id(&self, func: FuncId, inst: Inst) -> Option<u32> {
        let id = *self.ids.get(func.index())?.get(inst.index())?;
        (id != NO_ID).then_some(id)
    }

    /// What a request of `kind` by instruction `id` does at the L1.
    #[inline]
    pub fn op(&self, id: u32, kind: AccessKind) -> Op {
        match kind {
            AccessKind::Load => self.policies[id as usize].load,
            AccessKind::Store => Op::Store,
            AccessKind::Atomic | AccessKind::Reduction => Op::Bypass { write: true },
        }
    }

    pub fn len(&self) -> usize {
        self.sites.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sites.is_empty()
    }
}

fn is_memory_opcode(d: &warpscope_ir::InstData) -> bool {
    use warpscope_ptx::Opcode;
    matches!(
        d.op,
        Opcode::Ld | Opcode::St | Opcode::Atom | Opcode::Red | Opcode::Ldu
    )
}

/// The L1 behaviour of a load with these modifiers.
pub fn load_op(m: &warpscope_ptx::modifiers::Modifiers) -> Op {
    let strong_wide = matches!(
        m.order,
        Some(MemOrder::Relaxed | MemOrder::Acquire | MemOrder::Sc)
    ) && matches!(m.scope, Some(Scope::Gpu | Scope::Sys | Scope::Cluster));
    if m.order == Some(MemOrder::Volatile)
        || strong_wide
        || matches!(m.cache, Some(CacheOp::Cg | CacheOp::Cv))
    {
        return Op::Bypass { write: false };
    }
    if m.l1_evict == Some(L1Evict::NoAllocate) {
        return Op::Load(Insert::None);
    }
    if matches!(m.cache, Some(CacheOp::Cs | CacheOp::Lu)) || m.l1_evict == Some(L1Evict::First) {
        return Op::Load(Insert::Lru);
    }
    Op::Load(Insert::Mru)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_ptx::modifiers::Modifiers;

    #[test]
    fn cache_operators_map_to_l1_behaviour() {
        let mut m = Modifiers::EMPTY;
        assert_eq!(load_op(&m), Op::Load(Insert::Mru));
        m.cache = Some(CacheOp::Cg);
        assert_eq!(load_op(&m), Op::Bypass { write: false });
        m.cache = Some(CacheOp::Cs);
        assert_eq!(load_op(&m), Op::Load(Insert::Lru));
        m.cache = Some(CacheOp::Lu);
        assert_eq!(load_op(&m), Op::Load(Insert::Lru));
        m.cache = None;
        m.l1_evict = Some(L1Evict::NoAllocate);
        assert_eq!(load_op(&m), Op::Load(Insert::None));
        m.l1_evict = None;
        m.order = Some(MemOrder::Volatile);
        assert_eq!(load_op(&m), Op::Bypass { write: false });
        m.order = Some(MemOrder::Relaxed);
        m.scope = Some(Scope::Cta);
        assert_eq!(load_op(&m), Op::Load(Insert::Mru));
        m.scope = Some(Scope::Gpu);
        assert_eq!(load_op(&m), Op::Bypass { write: false });
    }
}
