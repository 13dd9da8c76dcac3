//! Function bodies: blocks and statements, `.reg` declarations, instructions (mnemonic,
//! modifiers, guard) and their operands.

use super::*;

impl<'a> Parser<'a> {
    // ---------------------------------------------------------------- statements

    /// Parses statements up to and including the closing `}` (the `{` is already consumed).
    pub(super) fn block(&mut self, open: Span) -> Vec<Statement<'a>> {
        // Statements are collected on a scratch stack shared by all nesting levels and moved
        // into an exactly-sized Vec at the end (no growth reallocations of the AST).
        let start = self.scratch.len();
        loop {
            match self.kind() {
                Tok::RBrace => {
                    self.bump();
                    break;
                }
                Tok::Eof => {
                    self.error(
                        ErrorKind::Unbalanced,
                        open,
                        "unclosed '{': expected '}' before end of input",
                    );
                    break;
                }
                Tok::LBrace => {
                    let sp = self.span();
                    self.bump();
                    if self.depth >= MAX_DEPTH {
                        self.error(ErrorKind::TooDeep, sp, "blocks nested too deeply");
                        // skip the rest of this block, balanced
                        let mut d = 1u32;
                        while d > 0 {
                            match self.kind() {
                                Tok::Eof => break,
                                Tok::LBrace => d += 1,
                                Tok::RBrace => d -= 1,
                                _ => {}
                            }
                            self.bump();
                        }
                        continue;
                    }
                    self.depth += 1;
                    let mark = self.local_regs.len();
                    let inner = self.block(sp);
                    self.local_regs.truncate(mark);
                    self.depth -= 1;
                    self.scratch.push(Statement::Scope(inner));
                }
                Tok::Semi => self.bump(),
                Tok::Error => {
                    // Report a run of stray characters once and resume right after it.
                    self.expected("a statement");
                    while self.kind() == Tok::Error {
                        self.bump();
                    }
                }
                _ => {
                    if self.statement().is_err() {
                        self.recover(false);
                    }
                }
            }
        }
        let start = start.min(self.scratch.len());
        self.scratch.drain(start..).collect()
    }

    pub(super) fn statement(&mut self) -> PResult<()> {
        match self.kind() {
            Tok::Ident if self.kind_at(1) == Tok::Colon => {
                let sp = self.span();
                let name = self.text();
                self.bump();
                self.bump();
                if self.kind() == Tok::Dot {
                    match self.text() {
                        ".branchtargets" | ".calltargets" => {
                            let branch = self.text() == ".branchtargets";
                            self.bump();
                            let mut targets = Vec::new();
                            loop {
                                targets.push(self.expect_ident("a label")?);
                                if !self.eat(Tok::Comma) {
                                    break;
                                }
                            }
                            let end = self.expect(Tok::Semi, "';'")?;
                            let t = TargetList {
                                name,
                                targets,
                                span: sp.to(end),
                            };
                            self.scratch.push(if branch {
                                Statement::BranchTargets(t)
                            } else {
                                Statement::CallTargets(t)
                            });
                            return Ok(());
                        }
                        ".callprototype" => {
                            let p = self.call_prototype(name, sp)?;
                            self.scratch.push(Statement::CallPrototype(p));
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                self.scratch
                    .push(Statement::Label(name, Span::new(sp.start, self.prev_end())));
                Ok(())
            }
            Tok::Ident | Tok::At => {
                if let Some(i) = self.instruction()? {
                    self.scratch.push(Statement::Instruction(i));
                }
                Ok(())
            }
            Tok::Dot => self.directive_statement(),
            _ => {
                self.expected("a statement");
                Err(())
            }
        }
    }

    pub(super) fn directive_statement(&mut self) -> PResult<()> {
        let start = self.span();
        let d = self.text();
        match d {
            ".reg" => {
                self.bump();
                let r = self.reg_decl(start)?;
                self.scratch.push(Statement::RegDecl(r));
            }
            ".local" | ".shared" | ".param" | ".const" | ".global" => {
                let mut out = Vec::new();
                self.variable(None, start, &mut out)?;
                self.scratch.extend(out.into_iter().map(Statement::VarDecl));
            }
            ".loc" => {
                self.bump();
                let file = self.u32_value("a file index")?;
                let line = self.u32_value("a line number")?;
                let col = self.u32_value("a column number")?;
                let mut function_name = None;
                let mut inlined_at = None;
                while self.eat(Tok::Comma) {
                    match (self.kind(), self.text()) {
                        (Tok::Ident, "function_name") => {
                            self.bump();
                            function_name = Some(self.expect_ident("a symbol")?);
                        }
                        (Tok::Ident, "inlined_at") => {
                            self.bump();
                            let f = self.u32_value("a file index")?;
                            let l = self.u32_value("a line number")?;
                            let c = self.u32_value("a column number")?;
                            inlined_at = Some((f, l, c));
                        }
                        _ => {
                            self.expected("'function_name' or 'inlined_at'");
                            return Err(());
                        }
                    }
                }
                self.scratch.push(Statement::Loc(Loc {
                    file,
                    line,
                    col,
                    function_name,
                    inlined_at,
                    span: start.to(Span::new(0, self.prev_end())),
                }));
            }
            ".pragma" => {
                self.bump();
                let p = self.pragma(start)?;
                self.scratch.push(Statement::Pragma(p));
            }
            _ => {
                self.error(
                    ErrorKind::UnknownDirective,
                    start,
                    format!("unknown directive '{d}' in function body"),
                );
                return Err(());
            }
        }
        Ok(())
    }

    pub(super) fn reg_decl(&mut self, start: Span) -> PResult<RegDecl<'a>> {
        let (vec, ty) = self.decl_modifiers("register", |_, _| Ok(false))?;
        let mut names = SmallVec::new();
        loop {
            let name = self.expect_ident("a register name")?;
            let mut count = None;
            if self.kind() == Tok::Lt {
                self.bump();
                let sp = self.span();
                let ok = matches!(self.kind(), Tok::DecInt | Tok::HexInt | Tok::BinInt);
                let n = if ok {
                    parse_int(self.kind(), self.text())
                } else {
                    None
                };
                match n.and_then(|(v, _)| u32::try_from(v).ok()) {
                    Some(n) if n > 0 => {
                        self.bump();
                        count = Some(n);
                    }
                    _ => {
                        let t = self.text();
                        self.error(
                            ErrorKind::BadRegisterRange,
                            sp,
                            format!("bad register range '<{t}>': expected a positive count"),
                        );
                        return Err(());
                    }
                }
                self.expect(Tok::Gt, "'>'")?;
            }
            if !name.starts_with('%') {
                self.local_regs.push(name);
            }
            names.push(RegName { name, count });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "';'")?;
        Ok(RegDecl {
            ty,
            vec,
            names,
            span: start.to(end),
        })
    }

    // ---------------------------------------------------------------- instructions

    pub(super) fn instruction(&mut self) -> PResult<Option<Instruction<'a>>> {
        let start = self.span();
        let mut guard = None;
        if self.eat(Tok::At) {
            let negated = self.eat(Tok::Bang);
            let reg = self.expect_ident("a guard predicate")?;
            guard = Some(Guard { reg, negated });
        }
        let head_span = self.span();
        let head = self.expect_ident("an instruction")?;
        // The mnemonic's `.xxx` parts are the Dot tokens that follow.
        let first_mod = self.pos;
        let mut n_mods = 0usize;
        while self.kind_at(n_mods) == Tok::Dot {
            n_mods += 1;
            if n_mods > MAX_MODS {
                self.error(
                    ErrorKind::UnknownModifier,
                    head_span,
                    format!("too many modifiers on '{head}'"),
                );
                return Err(());
            }
        }
        let (op, consumed) = match self.lookup_opcode(head, n_mods) {
            Some(x) => x,
            None => {
                let sp = head_span;
                self.error(
                    ErrorKind::UnknownInstruction,
                    sp,
                    format!("unknown instruction '{head}'"),
                );
                return Err(());
            }
        };
        let mut mods = Modifiers::EMPTY;
        let (cats, flags) = allowed(op);
        let mut bad = false;
        for i in consumed..n_mods {
            let Some(tok) = self.toks.get(first_mod + i) else {
                break;
            };
            let sp = tok.span();
            let text = self.src.get(sp.range()).unwrap_or("");
            let m = text.get(1..).unwrap_or("");
            let name = op.name();
            let msg = match apply_modifier(op, &mut mods, m) {
                Ok(c) => {
                    let ok = if c.cat == cat::FLAG {
                        flags.contains(c.flag)
                    } else {
                        cats & c.cat != 0
                    };
                    (!ok).then(|| format!("modifier '{text}' is not valid for '{name}'"))
                }
                Err(ModError::Unknown) => Some(format!("unknown modifier '{text}' for '{name}'")),
                Err(ModError::Duplicate) => Some(format!(
                    "duplicate or conflicting modifier '{text}' for '{name}'"
                )),
            };
            if let Some(msg) = msg {
                self.error(ErrorKind::UnknownModifier, sp, msg);
                bad = true;
            }
        }
        for _ in 0..n_mods {
            self.bump();
        }
        let mut operands: SmallVec<[Operand<'a>; 4]> = SmallVec::new();
        if self.kind() != Tok::Semi {
            loop {
                operands.push(self.operand(true)?);
                match self.kind() {
                    Tok::Comma => self.bump(),
                    Tok::Semi => break,
                    _ => {
                        if self.newline_before() || self.kind() == Tok::RBrace {
                            let e = self.prev_end();
                            self.error(
                                ErrorKind::Expected,
                                Span::new(e, e),
                                "missing ';' after instruction",
                            );
                            if bad {
                                return Ok(None);
                            }
                            let span = start.to(Span::new(0, e));
                            return Ok(Some(Instruction {
                                guard,
                                op,
                                mods,
                                operands,
                                span,
                            }));
                        }
                        self.expected("',' or ';'");
                        return Err(());
                    }
                }
            }
        }
        let end = self.span();
        self.bump(); // ';'
        if bad {
            // Modifier errors are already reported and the statement is consumed.
            return Ok(None);
        }
        Ok(Some(Instruction {
            guard,
            op,
            mods,
            operands,
            span: start.to(end),
        }))
    }

    /// Finds the opcode for `head` followed by `n_mods` dot tokens, gluing compound
    /// mnemonics longest-first. Returns the opcode and how many dot tokens it consumed.
    #[inline]
    pub(super) fn lookup_opcode(&self, head: &str, n_mods: usize) -> Option<(Opcode, usize)> {
        if Opcode::has_compounds(head) && n_mods > 0 {
            let part = |i: usize| if i < n_mods { self.text_at(i) } else { "" };
            if let Some(found) = compound_opcode(head, [part(0), part(1), part(2), part(3)]) {
                return Some(found);
            }
        }
        Opcode::from_mnemonic(head).map(|op| (op, 0))
    }

    /// Parses one operand. `allow_compound` permits vectors/lists/brackets (not nested).
    pub(super) fn operand(&mut self, allow_compound: bool) -> PResult<Operand<'a>> {
        match self.kind() {
            Tok::Ident => Ok(self.name_operand()),
            Tok::Underscore => {
                self.bump();
                Ok(Operand::Sink)
            }
            Tok::Bang => {
                self.bump();
                let r = self.expect_ident("a predicate register")?;
                Ok(Operand::Negated(r))
            }
            Tok::Minus
            | Tok::DecInt
            | Tok::HexInt
            | Tok::BinInt
            | Tok::F32Bits
            | Tok::F64Bits
            | Tok::Float => self.int_operand(),
            Tok::LBrace if allow_compound => {
                self.bump();
                let v = self.operand_seq(Tok::RBrace, "'}'")?;
                Ok(Operand::Vector(v))
            }
            Tok::LParen if allow_compound => {
                self.bump();
                let v = self.operand_seq(Tok::RParen, "')'")?;
                Ok(Operand::List(v))
            }
            Tok::LBracket if allow_compound => self.bracket(),
            _ => {
                self.expected("an operand");
                Err(())
            }
        }
    }

    pub(super) fn operand_seq(&mut self, close: Tok, what: &str) -> PResult<Box<[Operand<'a>]>> {
        let mut v: SmallVec<[Operand<'a>; 8]> = SmallVec::new();
        if self.eat(close) {
            return Ok(Box::new([]));
        }
        loop {
            v.push(self.operand(false)?);
            if self.eat(Tok::Comma) {
                continue;
            }
            if self.eat(close) {
                return Ok(v.into_vec().into_boxed_slice());
            }
            self.expected(what);
            return Err(());
        }
    }

    #[inline]
    pub(super) fn name_operand(&mut self) -> Operand<'a> {
        let name = self.text();
        self.bump();
        if name.starts_with('%') {
            if let Some(sr) = special_reg(name) {
                let mut dim = None;
                if sr.has_components()
                    && self.kind() == Tok::Dot
                    && let Some(d) = Dim::from_str_dim(self.text().get(1..).unwrap_or(""))
                {
                    self.bump();
                    dim = Some(d);
                }
                return Operand::SpecialReg(sr, dim);
            }
            if self.kind() == Tok::Pipe && self.kind_at(1) == Tok::Ident {
                self.bump();
                let b = self.text();
                self.bump();
                return Operand::PredPair(name, b);
            }
            return Operand::Reg(name);
        }
        let is_reg = self.local_regs.contains(name);
        if !is_reg && name == WARP_SZ {
            return Operand::Imm(WARP_SIZE);
        }
        if is_reg {
            if self.kind() == Tok::Pipe && self.kind_at(1) == Tok::Ident {
                self.bump();
                let b = self.text();
                self.bump();
                return Operand::PredPair(name, b);
            }
            Operand::Reg(name)
        } else {
            Operand::Symbol(name)
        }
    }

    /// `[base]`, `[base+off]`, `[base-off]`, `[imm]`, or `[a, {b, c}]`.
    pub(super) fn bracket(&mut self) -> PResult<Operand<'a>> {
        let open = self.span();
        self.bump();
        let first = match self.kind() {
            Tok::LBrace => {
                self.bump();
                Operand::Vector(self.operand_seq(Tok::RBrace, "'}'")?)
            }
            _ => self.operand(false)?,
        };
        match self.kind() {
            Tok::RBracket | Tok::Plus | Tok::Minus => {
                let mut offset = 0i64;
                while matches!(self.kind(), Tok::Plus | Tok::Minus) {
                    let neg = self.kind() == Tok::Minus;
                    self.bump();
                    let sp = self.span();
                    let v = match self.int_operand()? {
                        Operand::Imm(v) => v,
                        Operand::UImm(v) => v as i64,
                        _ => {
                            self.error(ErrorKind::Invalid, sp, "expected an integer offset");
                            return Err(());
                        }
                    };
                    let v = if neg { v.wrapping_neg() } else { v };
                    offset = offset.wrapping_add(v);
                }
                self.expect(Tok::RBracket, "']'")?;
                let base = match first {
                    Operand::Reg(r) => AddrBase::Reg(r),
                    Operand::Symbol(s) => AddrBase::Symbol(s),
                    Operand::Imm(v) => AddrBase::Imm(v),
                    Operand::UImm(v) => AddrBase::Imm(v as i64),
                    _ => {
                        self.error(ErrorKind::Invalid, open, "invalid address base");
                        return Err(());
                    }
                };
                let (base, offset) = match base {
                    AddrBase::Imm(v) => (AddrBase::Imm(v.wrapping_add(offset)), 0),
                    b => (b, offset),
                };
                Ok(Operand::Address(Address { base, offset }))
            }
            Tok::Comma => {
                let mut v: SmallVec<[Operand<'a>; 4]> = SmallVec::new();
                v.push(first);
                while self.eat(Tok::Comma) {
                    if self.kind() == Tok::LBrace {
                        self.bump();
                        v.push(Operand::Vector(self.operand_seq(Tok::RBrace, "'}'")?));
                    } else {
                        v.push(self.operand(false)?);
                    }
                }
                self.expect(Tok::RBracket, "']'")?;
                Ok(Operand::AddressList(v.into_vec().into_boxed_slice()))
            }
            _ => {
                self.expected("']'");
                Err(())
            }
        }
    }
}

/// Register names without `%` declared in the enclosing scopes (inline asm writes
/// `.reg .pred p;`). A stack for scope exits plus a count map for O(1) lookups.
#[derive(Default)]
pub(super) struct LocalRegs<'a> {
    stack: Vec<&'a str>,
    counts: std::collections::HashMap<&'a str, u32, std::hash::BuildHasherDefault<FxHasher>>,
}

/// The FxHash function (rustc's): fast for short string keys; no DoS resistance needed here
/// beyond what the bounded input size gives.
#[derive(Default)]
struct FxHasher {
    hash: u64,
}

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            let word = u64::from_le_bytes(buf);
            self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl<'a> LocalRegs<'a> {
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.stack.len()
    }

    #[inline]
    pub(super) fn clear(&mut self) {
        self.stack.clear();
        self.counts.clear();
    }

    #[inline]
    pub(super) fn push(&mut self, name: &'a str) {
        self.stack.push(name);
        *self.counts.entry(name).or_insert(0) += 1;
    }

    #[inline]
    pub(super) fn truncate(&mut self, len: usize) {
        while self.stack.len() > len {
            let Some(name) = self.stack.pop() else { break };
            if let Some(c) = self.counts.get_mut(name) {
                *c -= 1;
                if *c == 0 {
                    self.counts.remove(name);
                }
            }
        }
    }

    #[inline]
    pub(super) fn contains(&self, name: &str) -> bool {
        !self.stack.is_empty() && self.counts.contains_key(name)
    }
}

/// Matches compound mnemonics (`cp.async.bulk.tensor`, `bar.warp.sync`, ...) given the head
/// and up to four following parts (with their dots; `""` when absent). Longest match wins.
#[inline]
pub(super) fn compound_opcode(head: &str, p: [&str; 4]) -> Option<(Opcode, usize)> {
    use Opcode::*;
    let r = match (head, p[0], p[1], p[2], p[3]) {
        ("cp", ".async", ".bulk", ".prefetch", ".tensor") => (CpAsyncBulkPrefetchTensor, 4),
        ("cp", ".reduce", ".async", ".bulk", ".tensor") => (CpReduceAsyncBulkTensor, 4),
        ("cp", ".async", ".bulk", ".tensor", _) => (CpAsyncBulkTensor, 3),
        ("cp", ".async", ".bulk", ".commit_group", _) => (CpAsyncBulkCommitGroup, 3),
        ("cp", ".async", ".bulk", ".wait_group", _) => (CpAsyncBulkWaitGroup, 3),
        ("cp", ".async", ".bulk", ".prefetch", _) => (CpAsyncBulkPrefetch, 3),
        ("cp", ".async", ".mbarrier", ".arrive", _) => (CpAsyncMbarrierArrive, 3),
        ("cp", ".reduce", ".async", ".bulk", _) => (CpReduceAsyncBulk, 3),
        ("cp", ".async", ".bulk", _, _) => (CpAsyncBulk, 2),
        ("cp", ".async", ".commit_group", _, _) => (CpAsyncCommitGroup, 2),
        ("cp", ".async", ".wait_group", _, _) => (CpAsyncWaitGroup, 2),
        ("cp", ".async", ".wait_all", _, _) => (CpAsyncWaitAll, 2),
        ("cp", ".async", _, _, _) => (CpAsync, 1),
        ("bar", ".warp", ".sync", _, _) => (BarWarpSync, 2),
        ("barrier", ".cluster", ".arrive", _, _) => (BarrierClusterArrive, 2),
        ("barrier", ".cluster", ".wait", _, _) => (BarrierClusterWait, 2),
        ("wmma", ".load", ".a", _, _) => (WmmaLoadA, 2),
        ("wmma", ".load", ".b", _, _) => (WmmaLoadB, 2),
        ("wmma", ".load", ".c", _, _) => (WmmaLoadC, 2),
        ("wmma", ".store", ".d", _, _) => (WmmaStoreD, 2),
        ("wgmma", ".mma_async", ".sp", _, _) => (WgmmaMmaAsyncSp, 2),
        _ => {
            let name = match (head, p[0]) {
                ("st", ".async") => "st.async",
                ("st", ".bulk") => "st.bulk",
                ("cvt", ".pack") => "cvt.pack",
                ("brx", ".idx") => "brx.idx",
                ("red", ".async") => "red.async",
                ("tensormap", ".replace") => "tensormap.replace",
                ("tensormap", ".cp_fenceproxy") => "tensormap.cp_fenceproxy",
                ("mma", ".sp") => "mma.sp",
                ("mma", ".sp::ordered_metadata") => "mma.sp::ordered_metadata",
                ("wmma", ".mma") => "wmma.mma",
                ("wgmma", ".fence") => "wgmma.fence",
                ("wgmma", ".commit_group") => "wgmma.commit_group",
                ("wgmma", ".wait_group") => "wgmma.wait_group",
                ("wgmma", ".mma_async") => "wgmma.mma_async",
                ("griddepcontrol", ".launch_dependents") => "griddepcontrol.launch_dependents",
                ("griddepcontrol", ".wait") => "griddepcontrol.wait",
                ("multimem", ".ld_reduce") => "multimem.ld_reduce",
                ("multimem", ".st") => "multimem.st",
                ("multimem", ".red") => "multimem.red",
                ("mbarrier", ".init") => "mbarrier.init",
                ("mbarrier", ".inval") => "mbarrier.inval",
                ("mbarrier", ".arrive") => "mbarrier.arrive",
                ("mbarrier", ".arrive_drop") => "mbarrier.arrive_drop",
                ("mbarrier", ".expect_tx") => "mbarrier.expect_tx",
                ("mbarrier", ".complete_tx") => "mbarrier.complete_tx",
                ("mbarrier", ".test_wait") => "mbarrier.test_wait",
                ("mbarrier", ".try_wait") => "mbarrier.try_wait",
                ("mbarrier", ".pending_count") => "mbarrier.pending_count",
                _ => return None,
            };
            return Opcode::from_mnemonic(name).map(|op| (op, 1));
        }
    };
    Some(r)
}

/// Special register lookup, skipping the common `%r12`-style names quickly.
#[inline]
pub(super) fn special_reg(name: &str) -> Option<SpecialReg> {
    let b = name.as_bytes();
    if b.last().is_some_and(u8::is_ascii_digit)
        && !(name.starts_with("%envreg")
            || name.starts_with("%pm")
            || name.starts_with("%clock64")
            || name.starts_with("%reserved"))
    {
        return None;
    }
    SpecialReg::from_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `WARP_SZ`, PTX's predefined warp-size constant, parses as the immediate 32 in plain and
    /// address-offset positions; a `.reg` of that name declared by inline asm stays a register.
    #[test]
    fn warp_sz_is_the_predefined_constant_32() {
        let src = ".version 8.5\n.target sm_90\n.entry k() {\n.reg .b32 %r<3>;\n\
                   mov.u32 %r1, WARP_SZ;\nadd.s32 %r2, %r1, WARP_SZ;\n\
                   { .reg .b32 WARP_SZ; mov.u32 WARP_SZ, %r1; }\n}";
        let (m, errors) = parse(src);
        assert!(errors.is_empty(), "{errors:?}");
        let body = m.functions().next().unwrap().body.as_deref().unwrap();
        let ops: Vec<&[Operand]> = body
            .iter()
            .filter_map(|s| match s {
                Statement::Instruction(i) => Some(&i.operands[..]),
                _ => None,
            })
            .collect();
        assert_eq!(ops[0][1], Operand::Imm(32));
        assert_eq!(ops[1][2], Operand::Imm(32));
        let Some(Statement::Scope(inner)) = body.last() else {
            panic!("no scope: {body:?}")
        };
        let Some(Statement::Instruction(i)) = inner.last() else {
            panic!("no instruction: {inner:?}")
        };
        assert_eq!(i.operands[0], Operand::Reg("WARP_SZ"));
    }

    /// Every opcode is reachable from its own mnemonic text.
    #[test]
    fn every_opcode_round_trips_through_its_mnemonic() {
        for &op in Opcode::ALL {
            let name = op.name();
            let mut parts = name.split('.');
            let head = parts.next().unwrap();
            let rest: Vec<String> = parts.map(|p| format!(".{p}")).collect();
            let found = if rest.is_empty() {
                Opcode::from_mnemonic(head).map(|o| (o, 0))
            } else {
                let get = |i: usize| rest.get(i).map_or("", String::as_str);
                compound_opcode(head, [get(0), get(1), get(2), get(3)])
            };
            assert_eq!(found, Some((op, rest.len())), "{name}");
            let src = format!(".version 8.5\n.target sm_90\n.entry k() {{ {name}; }}");
            let (m, errors) = parse(&src);
            assert!(errors.is_empty(), "{name}: {errors:?}");
            let f = m.functions().next().unwrap();
            match f.body.as_deref() {
                Some([Statement::Instruction(i)]) => assert_eq!(i.op, op),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}
