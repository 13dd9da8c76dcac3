//! Interned uniform symbols and the monomials made of them: the vocabulary of
//! [`crate::warp_val::WarpVal`]'s polynomials, below both the values and their evaluator
//! ([`crate::eval`]).

use crate::expr::{Atom, Node};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A uniform symbol: an atom, or the result of an operation all lanes share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sym {
    Atom(Atom),
    Node(Node),
}

/// What is known about a symbol's value, for alignment reasoning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SymInfo {
    /// Its values are multiples of `align` (a power of two). 0: *sliding* (a loop iteration
    /// count or loop-carried value) — contributes no fixed misalignment.
    pub align: u64,
    /// Inclusive value range, when known and small (block indices).
    pub range: Option<(i64, i64)>,
    /// Known only at run time (a loaded value, a vote result), as opposed to a parameter or
    /// block index the analysis could be told or could enumerate.
    pub data: bool,
}

impl SymInfo {
    pub const ANY: SymInfo = SymInfo {
        align: 1,
        range: None,
        data: false,
    };
    pub const DATA: SymInfo = SymInfo {
        align: 1,
        range: None,
        data: true,
    };
}

/// Interned symbols and monomials (monomial 0 is the constant 1).
#[derive(Debug, Clone)]
pub struct Symbols {
    syms: Vec<(Sym, SymInfo)>,
    sym_index: FxHashMap<Sym, u32>,
    monos: Vec<SmallVec<[u32; 2]>>,
    mono_index: FxHashMap<SmallVec<[u32; 2]>, u32>,
}

impl Default for Symbols {
    fn default() -> Self {
        let mut s = Symbols {
            syms: Vec::new(),
            sym_index: FxHashMap::default(),
            monos: Vec::new(),
            mono_index: FxHashMap::default(),
        };
        s.monos.push(SmallVec::new());
        s.mono_index.insert(SmallVec::new(), 0);
        s
    }
}

impl Symbols {
    /// The id of `s`, interning it with `info` on first sight.
    pub fn sym(&mut self, s: Sym, info: SymInfo) -> u32 {
        if let Some(&i) = self.sym_index.get(&s) {
            return i;
        }
        let i = self.syms.len() as u32;
        self.syms.push((s, info));
        self.sym_index.insert(s, i);
        i
    }

    pub fn info(&self, id: u32) -> SymInfo {
        self.syms[id as usize].1
    }

    pub fn symbol(&self, id: u32) -> Sym {
        self.syms[id as usize].0
    }

    /// The monomial made of the given symbols.
    pub fn mono(&mut self, mut factors: SmallVec<[u32; 2]>) -> u32 {
        factors.sort_unstable();
        if let Some(&i) = self.mono_index.get(&factors) {
            return i;
        }
        let i = self.monos.len() as u32;
        self.monos.push(factors.clone());
        self.mono_index.insert(factors, i);
        i
    }

    pub fn factors(&self, m: u32) -> &[u32] {
        &self.monos[m as usize]
    }

    pub(crate) fn mono_mul(&mut self, a: u32, b: u32) -> u32 {
        if a == 0 {
            return b;
        }
        if b == 0 {
            return a;
        }
        let f: SmallVec<[u32; 2]> = self.monos[a as usize]
            .iter()
            .chain(self.monos[b as usize].iter())
            .copied()
            .collect();
        self.mono(f)
    }
}
