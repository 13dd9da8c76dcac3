//! Module-level parsing: directives (`.version`, `.target`, `.file`, `.section`, `.pragma`),
//! functions and their parameter lists, and variable declarations with initializers.

use super::*;

impl<'a> Parser<'a> {
    // ---------------------------------------------------------------- module

    pub(super) fn module(&mut self) -> Module<'a> {
        let mut m = Module::default();
        loop {
            match self.kind() {
                Tok::Eof => break,
                Tok::Dot => {
                    if self.top_directive(&mut m).is_err() {
                        self.recover(true);
                    }
                }
                Tok::Ident if self.kind_at(1) == Tok::Colon => {
                    let start = self.span();
                    let name = self.text();
                    self.bump();
                    self.bump();
                    if self.at_dot(".callprototype") {
                        match self.call_prototype(name, start) {
                            Ok(p) => m.items.push(Item::CallPrototype(p)),
                            Err(()) => self.recover(true),
                        }
                    } else {
                        self.expected("'.callprototype' after a module-scope label");
                        self.recover(true);
                    }
                }
                Tok::Semi => self.bump(),
                _ => {
                    self.expected("a directive");
                    self.recover(true);
                }
            }
        }
        m
    }

    pub(super) fn top_directive(&mut self, m: &mut Module<'a>) -> PResult<()> {
        let start = self.span();
        let d = self.text();
        match d {
            ".version" => {
                self.bump();
                let sp = self.span();
                let t = self.text();
                match self.kind() {
                    Tok::Float | Tok::DecInt => {
                        self.bump();
                        let mut it = t.splitn(2, '.');
                        let maj = it.next().and_then(|s| s.parse().ok());
                        let min = it.next().map_or(Some(0), |s| s.parse().ok());
                        match (maj, min) {
                            (Some(a), Some(b)) => m.version = (a, b),
                            _ => {
                                self.error(
                                    ErrorKind::BadNumber,
                                    sp,
                                    format!("invalid version '{t}'"),
                                );
                                return Err(());
                            }
                        }
                    }
                    _ => {
                        self.expected("a version number");
                        return Err(());
                    }
                }
            }
            ".target" => {
                self.bump();
                loop {
                    let t = self.expect_ident("a target name")?;
                    m.target.push(t);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
            }
            ".address_size" => {
                self.bump();
                m.address_size = self.u32_value("an address size")?;
            }
            ".file" => {
                self.bump();
                let f = self.file_decl(start)?;
                m.files.push(f);
                m.items.push(Item::File(f));
            }
            ".section" => {
                self.bump();
                let s = self.debug_section(start)?;
                m.items.push(Item::DebugSection(s));
            }
            ".pragma" => {
                self.bump();
                let p = self.pragma(start)?;
                m.items.push(Item::Pragma(p));
            }
            _ => {
                let linkage = match d {
                    ".visible" | ".extern" | ".weak" | ".common" => {
                        self.bump();
                        Linkage::from_str(&d[1..])
                    }
                    _ => None,
                };
                let d2 = if self.kind() == Tok::Dot {
                    self.text()
                } else {
                    ""
                };
                match d2 {
                    ".entry" | ".func" => {
                        let f = self.function(linkage, start)?;
                        m.items.push(Item::Function(f));
                    }
                    ".global" | ".shared" | ".const" | ".local" | ".tex" | ".param" => {
                        let mut out = Vec::new();
                        self.variable(linkage, start, &mut out)?;
                        m.items.extend(out.into_iter().map(Item::Variable));
                    }
                    _ => {
                        let sp = self.span();
                        if self.kind() == Tok::Dot {
                            self.error(
                                ErrorKind::UnknownDirective,
                                sp,
                                format!("unknown or misplaced directive '{d2}'"),
                            );
                        } else {
                            self.expected("'.entry', '.func' or a variable declaration");
                        }
                        return Err(());
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn file_decl(&mut self, start: Span) -> PResult<FileDecl<'a>> {
        let index = self.u32_value("a file index")?;
        let path = self.string("a file path")?;
        let mut timestamp = None;
        let mut size = None;
        if self.eat(Tok::Comma) {
            timestamp = Some(self.u64_value("a timestamp")?);
            self.expect(Tok::Comma, "','")?;
            size = Some(self.u64_value("a file size")?);
        }
        Ok(FileDecl {
            index,
            path,
            timestamp,
            size,
            span: start.to(Span::new(0, self.prev_end())),
        })
    }

    pub(super) fn string(&mut self, what: &str) -> PResult<&'a str> {
        if self.kind() == Tok::Str {
            let t = self.text();
            self.bump();
            Ok(t.get(1..t.len().saturating_sub(1)).unwrap_or(""))
        } else {
            self.expected(what);
            Err(())
        }
    }

    pub(super) fn debug_section(&mut self, start: Span) -> PResult<DebugSection<'a>> {
        if self.kind() != Tok::Dot {
            self.expected("a section name");
            return Err(());
        }
        let name = self.text();
        self.bump();
        let lb = self.expect(Tok::LBrace, "'{'")?;
        let mut depth = 1u32;
        loop {
            match self.kind() {
                Tok::Eof => {
                    self.error(ErrorKind::Unbalanced, lb, "unclosed '{' of debug section");
                    return Err(());
                }
                Tok::LBrace => depth = depth.saturating_add(1),
                Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        let rb = self.span();
                        self.bump();
                        let body = self
                            .src
                            .get(lb.end as usize..rb.start as usize)
                            .unwrap_or("");
                        return Ok(DebugSection {
                            name,
                            body,
                            span: start.to(rb),
                        });
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    pub(super) fn pragma(&mut self, start: Span) -> PResult<Pragma<'a>> {
        let mut strings = SmallVec::new();
        loop {
            strings.push(self.string("a pragma string")?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "';'")?;
        Ok(Pragma {
            strings,
            span: start.to(end),
        })
    }

    // ---------------------------------------------------------------- functions

    pub(super) fn function(
        &mut self,
        linkage: Option<Linkage>,
        start: Span,
    ) -> PResult<Function<'a>> {
        let kind = if self.text() == ".entry" {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        self.bump();
        let mut returns = Vec::new();
        if kind == FunctionKind::Func && self.kind() == Tok::LParen {
            returns = self.param_list()?;
        }
        let name_span = self.span();
        let name = self.expect_ident("a function name")?;
        let mut params = Vec::new();
        if self.kind() == Tok::LParen {
            params = self.param_list()?;
        }
        let mut attrs = FunctionAttrs::default();
        loop {
            if self.kind() != Tok::Dot {
                break;
            }
            let d = self.text();
            match d {
                ".maxntid" | ".reqntid" | ".reqnctapercluster" => {
                    self.bump();
                    let mut dims = [1u32; 3];
                    for (i, slot) in dims.iter_mut().enumerate() {
                        if i > 0 && !self.eat(Tok::Comma) {
                            break;
                        }
                        *slot = self.u32_value("a dimension")?;
                    }
                    match d {
                        ".maxntid" => attrs.maxntid = Some(dims),
                        ".reqntid" => attrs.reqntid = Some(dims),
                        _ => attrs.reqnctapercluster = Some(dims),
                    }
                }
                ".minnctapersm" | ".maxnctapersm" | ".maxnreg" | ".maxclusterrank" => {
                    self.bump();
                    let (slot, what) = match d {
                        ".minnctapersm" => (&mut attrs.minnctapersm, "a count"),
                        ".maxnctapersm" => (&mut attrs.maxnctapersm, "a count"),
                        ".maxnreg" => (&mut attrs.maxnreg, "a register count"),
                        _ => (&mut attrs.maxclusterrank, "a count"),
                    };
                    *slot = Some(self.u32_value(what)?);
                }
                ".noreturn" | ".explicitcluster" | ".blocksareclusters" => {
                    self.bump();
                    *match d {
                        ".noreturn" => &mut attrs.noreturn,
                        ".explicitcluster" => &mut attrs.explicitcluster,
                        _ => &mut attrs.blocksareclusters,
                    } = true;
                }
                _ => {
                    let sp = self.span();
                    self.error(
                        ErrorKind::UnknownDirective,
                        sp,
                        format!("unknown function directive '{d}'"),
                    );
                    return Err(());
                }
            }
        }
        let body = match self.kind() {
            Tok::Semi => {
                self.bump();
                None
            }
            Tok::LBrace => {
                let open = self.span();
                self.bump();
                self.local_regs.clear();
                self.depth = 0;
                Some(self.block(open))
            }
            _ => {
                self.expected("'{' or ';'");
                return Err(());
            }
        };
        Ok(Function {
            name,
            kind,
            linkage,
            params,
            returns,
            attrs,
            body,
            span: start.to(Span::new(0, self.prev_end())),
            name_span,
        })
    }

    pub(super) fn param_list(&mut self) -> PResult<Vec<Param<'a>>> {
        self.expect(Tok::LParen, "'('")?;
        let mut v = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(v);
        }
        loop {
            v.push(self.param()?);
            if self.eat(Tok::Comma) {
                continue;
            }
            self.expect(Tok::RParen, "',' or ')'")?;
            return Ok(v);
        }
    }

    pub(super) fn param(&mut self) -> PResult<Param<'a>> {
        let start = self.span();
        let space = match self.text() {
            ".param" if self.kind() == Tok::Dot => StateSpace::Param,
            ".reg" if self.kind() == Tok::Dot => StateSpace::Reg,
            _ => {
                self.expected("'.param' or '.reg'");
                return Err(());
            }
        };
        self.bump();
        let mut align = None;
        let mut vec = 1u8;
        let mut ty = None;
        let mut ptr: Option<PtrAttr> = None;
        while self.kind() == Tok::Dot {
            let d = self.text();
            let sp = self.span();
            self.bump();
            match d {
                ".align" => {
                    let a = self.u32_value("an alignment")?;
                    match &mut ptr {
                        Some(p) => p.align = Some(a),
                        None => align = Some(a),
                    }
                }
                ".ptr" => ptr = Some(PtrAttr::default()),
                ".v2" => vec = 2,
                ".v4" => vec = 4,
                ".v8" => vec = 8,
                _ => {
                    let s = &d[1..];
                    if let (Some(p), Some(sp2)) = (&mut ptr, StateSpace::from_str(s)) {
                        p.space = Some(sp2);
                    } else if let Some(t) = Type::from_str(s) {
                        ty = Some(t);
                    } else {
                        self.error(
                            ErrorKind::UnknownDirective,
                            sp,
                            format!("unexpected '{d}' in parameter"),
                        );
                        return Err(());
                    }
                }
            }
        }
        let Some(ty) = ty else {
            self.expected("a parameter type");
            return Err(());
        };
        let name = match self.kind() {
            Tok::Ident => self.text(),
            Tok::Underscore => "_",
            _ => {
                self.expected("a parameter name");
                return Err(());
            }
        };
        self.bump();
        let dims = self.dims()?;
        Ok(Param {
            space,
            align,
            vec,
            ty,
            ptr,
            name,
            dims,
            span: start.to(Span::new(0, self.prev_end())),
        })
    }

    pub(super) fn dims(&mut self) -> PResult<Dims> {
        let mut dims = Dims::new();
        while self.eat(Tok::LBracket) {
            if self.eat(Tok::RBracket) {
                dims.push(None);
                continue;
            }
            let n = self.u64_value("an array size")?;
            dims.push(Some(n));
            self.expect(Tok::RBracket, "']'")?;
        }
        Ok(dims)
    }

    pub(super) fn call_prototype(
        &mut self,
        name: &'a str,
        start: Span,
    ) -> PResult<CallPrototype<'a>> {
        self.bump(); // .callprototype
        let mut returns = Vec::new();
        if self.kind() == Tok::LParen {
            returns = self.param_list()?;
        }
        self.expect(Tok::Underscore, "'_'")?;
        let mut params = Vec::new();
        if self.kind() == Tok::LParen {
            params = self.param_list()?;
        }
        let mut noreturn = false;
        if self.at_dot(".noreturn") {
            self.bump();
            noreturn = true;
        }
        let end = self.expect(Tok::Semi, "';'")?;
        Ok(CallPrototype {
            name,
            returns,
            params,
            noreturn,
            span: start.to(end),
        })
    }

    // ---------------------------------------------------------------- variables

    pub(super) fn variable(
        &mut self,
        linkage: Option<Linkage>,
        start: Span,
        out: &mut Vec<Variable<'a>>,
    ) -> PResult<()> {
        let sp0 = self.span();
        let space = match StateSpace::from_str(self.text().get(1..).unwrap_or("")) {
            Some(s) if self.kind() == Tok::Dot => s,
            _ => {
                self.error(ErrorKind::UnknownDirective, sp0, "expected a state space");
                return Err(());
            }
        };
        self.bump();
        let mut managed = false;
        let mut align = None;
        let (vec, ty) = self.decl_modifiers("variable", |p, d| {
            match d {
                ".align" => align = Some(p.u32_value("an alignment")?),
                ".attribute" => {
                    p.expect(Tok::LParen, "'('")?;
                    if p.at_dot(".managed") {
                        p.bump();
                        managed = true;
                    } else {
                        p.expected("'.managed'");
                        return Err(());
                    }
                    p.expect(Tok::RParen, "')'")?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        loop {
            let vstart = if out.is_empty() { start } else { self.span() };
            let name = self.expect_ident("a variable name")?;
            let dims = self.dims()?;
            let mut init = None;
            if self.eat(Tok::Eq) {
                init = Some(self.initializer(0)?);
            }
            out.push(Variable {
                linkage,
                space,
                managed,
                align,
                vec,
                ty,
                name,
                dims,
                init,
                span: vstart.to(Span::new(0, self.prev_end())),
            });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "';'")?;
        if let Some(v) = out.last_mut() {
            v.span = v.span.to(end);
        }
        Ok(())
    }

    /// The modifiers of a variable or register declaration up to its name: `.v2`/`.v4`/`.v8`,
    /// exactly one type, and whatever `other` accepts (it returns false for a directive it
    /// does not know). `what` names the declaration in messages.
    pub(super) fn decl_modifiers(
        &mut self,
        what: &str,
        mut other: impl FnMut(&mut Self, &'a str) -> PResult<bool>,
    ) -> PResult<(u8, Type)> {
        let mut vec = 1u8;
        let mut ty = None;
        while self.kind() == Tok::Dot {
            let d = self.text();
            let sp = self.span();
            self.bump();
            match d {
                ".v2" => vec = 2,
                ".v4" => vec = 4,
                ".v8" => vec = 8,
                _ if other(self, d)? => {}
                _ => match Type::from_str(&d[1..]) {
                    Some(t) if ty.is_none() => ty = Some(t),
                    _ => {
                        self.error(
                            ErrorKind::UnknownDirective,
                            sp,
                            format!("unexpected '{d}' in {what} declaration"),
                        );
                        return Err(());
                    }
                },
            }
        }
        match ty {
            Some(ty) => Ok((vec, ty)),
            None => {
                self.expected(&format!("a {what} type"));
                Err(())
            }
        }
    }

    pub(super) fn initializer(&mut self, depth: u32) -> PResult<Initializer<'a>> {
        if self.kind() == Tok::LBrace {
            if depth >= MAX_DEPTH {
                self.error_here(ErrorKind::TooDeep, "initializer nested too deeply");
                return Err(());
            }
            self.bump();
            let mut v = Vec::new();
            if self.eat(Tok::RBrace) {
                return Ok(Initializer::List(v));
            }
            loop {
                v.push(self.initializer(depth + 1)?);
                if self.eat(Tok::Comma) {
                    continue;
                }
                self.expect(Tok::RBrace, "',' or '}'")?;
                return Ok(Initializer::List(v));
            }
        }
        Ok(Initializer::Value(self.init_value()?))
    }

    pub(super) fn init_value(&mut self) -> PResult<InitValue<'a>> {
        match self.kind() {
            Tok::Ident => {
                let name = self.text();
                self.bump();
                let (name, generic) = if name == "generic" && self.kind() == Tok::LParen {
                    self.bump();
                    let n = self.expect_ident("a symbol")?;
                    self.expect(Tok::RParen, "')'")?;
                    (n, true)
                } else {
                    (name, false)
                };
                let offset = match self.kind() {
                    Tok::Plus => {
                        self.bump();
                        self.i64_value("an offset")?
                    }
                    Tok::Minus => {
                        self.bump();
                        self.u64_value("an offset")?.wrapping_neg() as i64
                    }
                    _ => 0,
                };
                Ok(InitValue::Addr {
                    name,
                    offset,
                    generic,
                })
            }
            _ => Ok(match self.int_operand()? {
                Operand::Imm(v) => InitValue::Int(v),
                Operand::UImm(v) => InitValue::UInt(v),
                Operand::FImm32(v) => InitValue::F32(v),
                Operand::FImm64(v) => InitValue::F64(v),
                _ => return Err(()),
            }),
        }
    }
}
