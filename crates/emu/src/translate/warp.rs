//! Warp-wide operations: `shfl`, `vote`, `match`, `redux`, `activemask`, `elect`, `bar`
//! and `bar.warp.sync` (executed by `exec::warp`).

use super::*;

impl FnTranslator<'_, '_> {
    /// `shfl`.
    pub(super) fn shfl(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let ops = &d.operands;
        let opn = |i: usize| operand(d, i);
        let mode = m.shfl_mode.ok_or("shfl needs a mode")?;
        let (dd, p) = match opn(0)? {
            Operand::RegPair(a, b) => (self.reg(*a)?, self.pred(*b)?),
            o => (self.dst(o)?, NONE),
        };
        let a = self.src(opn(1)?, K::I(W::B32))?;
        let b = self.src(opn(2)?, K::I(W::B32))?;
        let c = self.src(opn(3)?, K::I(W::B32))?;
        let mask = match ops.get(4) {
            Some(o) => self.src(o, K::I(W::B32))?,
            None => self.konst(0xffff_ffff),
        };
        self.emit(Op::Shfl {
            mode,
            d: dd,
            p,
            a,
            b,
            c,
            mask,
        });
        Ok(())
    }

    /// `vote`.
    pub(super) fn vote(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let ops = &d.operands;
        let opn = |i: usize| operand(d, i);
        let mode = m.vote_mode.ok_or("vote needs a mode")?;
        let (a, neg) = self.src_pred(opn(1)?)?;
        let (f, dd) = match mode {
            VoteMode::Ballot => (VoteF::Ballot, self.dst(opn(0)?)?),
            VoteMode::All => (VoteF::All, self.dst_pred(opn(0)?)?),
            VoteMode::Any => (VoteF::Any, self.dst_pred(opn(0)?)?),
            VoteMode::Uni => (VoteF::Uni, self.dst_pred(opn(0)?)?),
        };
        let mask = self.member_mask(ops.get(2))?;
        self.emit(Op::Vote {
            f,
            d: dd,
            a,
            neg,
            mask,
        });
        Ok(())
    }

    /// `match`.
    pub(super) fn match_sync(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let ops = &d.operands;
        let opn = |i: usize| operand(d, i);
        let t = self.ty()?;
        let w64 = t.size_bytes() == 8;
        let all = m.vote_mode == Some(VoteMode::All);
        let (dd, p) = match opn(0)? {
            Operand::RegPair(a, b) => (self.reg(*a)?, self.pred(*b)?),
            o => (self.dst(o)?, NONE),
        };
        let a = self.src(opn(1)?, K::I(if w64 { W::B64 } else { W::B32 }))?;
        let mask = self.member_mask(ops.get(2))?;
        self.emit(Op::Match {
            all,
            w64,
            d: dd,
            p,
            a,
            mask,
        });
        Ok(())
    }

    /// `redux`.
    pub(super) fn redux(&mut self) -> TResult<()> {
        let d = self.cur();
        let m = d.mods;
        let ops = &d.operands;
        let opn = |i: usize| operand(d, i);
        let name = || inst_name(d);
        let t = self.ty()?;
        let s = t.is_signed_int();
        let f = match (m.atom_op, s) {
            (Some(AtomOp::Add), _) => ReduxF::Add,
            (Some(AtomOp::Min), true) => ReduxF::MinS,
            (Some(AtomOp::Min), false) => ReduxF::MinU,
            (Some(AtomOp::Max), true) => ReduxF::MaxS,
            (Some(AtomOp::Max), false) => ReduxF::MaxU,
            (Some(AtomOp::And), _) => ReduxF::And,
            (Some(AtomOp::Or), _) => ReduxF::Or,
            (Some(AtomOp::Xor), _) => ReduxF::Xor,
            _ => return Err(format!("`{}` is not supported", name())),
        };
        if t.is_float() {
            return Err("redux.sync on floats is not supported".into());
        }
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, K::I(W::B32))?;
        let mask = self.member_mask(ops.get(2))?;
        self.emit(Op::Redux { f, d: dd, a, mask });
        Ok(())
    }

    /// `activemask`.
    pub(super) fn activemask(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let dd = self.dst(opn(0)?)?;
        self.emit(Op::Activemask { d: dd });
        Ok(())
    }

    /// `elect`.
    pub(super) fn elect(&mut self) -> TResult<()> {
        let d = self.cur();
        let ops = &d.operands;
        let opn = |i: usize| operand(d, i);
        let (dd, p) = match opn(0)? {
            Operand::RegPair(a, b) => (self.dst(&Operand::Reg(*a))?, self.pred(*b)?),
            o => (self.dst(o)?, NONE),
        };
        let mask = self.member_mask(ops.get(1))?;
        self.emit(Op::Elect { d: dd, p, mask });
        Ok(())
    }

    /// `barwarpsync`.
    pub(super) fn bar_warp_sync(&mut self) -> TResult<()> {
        self.emit(Op::WarpSync);
        Ok(())
    }

    /// The membermask operand of a `.sync` warp instruction (all lanes when absent).
    pub(super) fn member_mask(&mut self, op: Option<&Operand>) -> TResult<R> {
        match op {
            Some(o) => self.src(o, K::I(W::B32)),
            None => Ok(self.konst(0xffff_ffff)),
        }
    }

    pub(super) fn bar(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let fl = m.flags;
        if m.scope == Some(warpscope_ptx::Scope::Cluster) {
            return Err("cluster barriers are not supported".into());
        }
        let aligned = d.op == Opcode::Bar || fl.contains(Flags::ALIGNED);
        let (kind, first) = if fl.contains(Flags::RED) {
            let k = match m.atom_op {
                Some(AtomOp::Popc) => BarKind::RedPopc,
                Some(AtomOp::And) => BarKind::RedAnd,
                Some(AtomOp::Or) => BarKind::RedOr,
                _ => return Err("bar.red needs .popc, .and or .or".into()),
            };
            (k, 1)
        } else if fl.contains(Flags::ARRIVE) {
            (BarKind::Arrive, 0)
        } else {
            (BarKind::Sync, 0)
        };
        let id = match ops.get(first) {
            Some(o) => self.src(o, K::I(W::B32))?,
            None => self.konst(0),
        };
        let (count, a, neg) = match kind {
            BarKind::Sync | BarKind::Arrive => {
                let c = match ops.get(first + 1) {
                    Some(o) => self.src(o, K::I(W::B32))?,
                    None => NONE,
                };
                (c, NONE, false)
            }
            _ => {
                // bar.red d, a{, b}, {!}c
                let n = ops.len();
                let (p, neg) = self.src_pred(&ops[n - 1])?;
                let c = if n == 4 {
                    self.src(&ops[2], K::I(W::B32))?
                } else {
                    NONE
                };
                (c, p, neg)
            }
        };
        let dd = match kind {
            BarKind::RedPopc => self.dst(&ops[0])?,
            BarKind::RedAnd | BarKind::RedOr => self.dst_pred(&ops[0])?,
            _ => NONE,
        };
        self.emit(Op::Bar {
            kind,
            aligned,
            id,
            count,
            d: dd,
            a,
            neg,
        });
        Ok(())
    }
}
