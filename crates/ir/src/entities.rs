//! Entity references: dense `u32` handles into the maps of a [`crate::Module`] or
//! [`crate::Function`]. Data hangs off them in `PrimaryMap`s (owned by the IR) or in
//! `SecondaryMap`s (side tables owned by analyses).

use cranelift_entity::entity_impl;

/// A function (`.entry` kernel or `.func` device function) of a module.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(u32);
entity_impl!(FuncId, "func");

/// A module-scope variable (`.global`, `.shared`, `.const`, `.local`), including `.extern` ones.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(u32);
entity_impl!(GlobalId, "global");

/// A basic block of a function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// An instruction of a function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// A PTX virtual register of a function (declared with `.reg`). PTX registers are not SSA:
/// one `Reg` may be defined by many instructions; see [`crate::DefUse`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(u32);
entity_impl!(Reg, "reg");

/// A function-scope variable (`.local`, `.shared` or `.param` declared inside a body).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(u32);
entity_impl!(LocalId, "local");

/// One definition site: an instruction writing one register.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Def(u32);
entity_impl!(Def, "def");

/// A natural loop.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loop(u32);
entity_impl!(Loop, "loop");
