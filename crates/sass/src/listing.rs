//! Reading nvdisasm's listing (`nvdisasm -g -c`): functions, their instructions with guard
//! predicates, and the CUDA line each instruction carries. The same [`Listing`] comes from the
//! cubin directly ([`crate::cubin::read`]); this reader serves the cross-check against nvdisasm.
//!
//! The listing names a function on a line `.text.NAME:`, prints each instruction as
//! `/*OFFSET*/  [@[!]P|UP|PT] OPCODE OPERANDS ;`, and before a run of instructions from one
//! source line a comment `//## File "PATH", line N` (with `-gi`, followed by `inlined at ...`;
//! the innermost position is the one a profiler attributes the instruction to). Anything else
//! (section directives, labels, headers) is skipped.

use rustc_hash::FxHashMap;

/// A disassembled module.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Source files named by the line comments, in order of first appearance.
    pub files: Vec<String>,
    pub functions: Vec<SassFunction>,
}

/// One function's code.
#[derive(Debug, Clone, Default)]
pub struct SassFunction {
    /// The symbol (the PTX `.entry`/`.func` name).
    pub name: String,
    pub instructions: Vec<SassInst>,
}

/// A guard predicate `@P0`, `@!UP1`, `@PT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    pub negated: bool,
    /// A uniform predicate (`UP0`..`UP6`, `UPT`): the same in every lane by construction.
    pub uniform: bool,
    /// The always-true predicate (`PT`, `UPT`).
    pub always: bool,
    /// The predicate's number (`P3`: 3; `PT`: 7).
    pub index: u8,
}

impl Guard {
    fn parse(s: &str) -> Option<Guard> {
        let (negated, s) = match s.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let (uniform, s) = match s.strip_prefix('U') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let rest = s.strip_prefix('P')?;
        let always = rest == "T";
        if !always && (rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
        Some(Guard {
            negated,
            uniform,
            always,
            index: if always { 7 } else { rest.parse().ok()? },
        })
    }

    /// Whether the guard is the same in every lane (a uniform predicate, or `PT`/`!PT`).
    pub fn is_uniform(self) -> bool {
        self.uniform || self.always
    }

    /// `@!PT`: the instruction never executes.
    pub fn is_never(self) -> bool {
        self.always && self.negated
    }
}

/// One SASS instruction.
#[derive(Debug, Clone)]
pub struct SassInst {
    /// Byte offset in the function.
    pub offset: u32,
    pub guard: Option<Guard>,
    /// The opcode with its modifiers (`BRA`, `BRA.DIV`, `ISETP.GE.AND`).
    pub opcode: String,
    /// The operands as printed.
    pub operands: String,
    /// The CUDA position: index into [`Listing::files`] and line.
    pub source: Option<(u32, u32)>,
}

impl SassInst {
    /// The opcode without its modifiers (`BRA` of `BRA.DIV`).
    pub fn base_opcode(&self) -> &str {
        self.opcode.split('.').next().unwrap_or("")
    }

    /// The predicate operand of a branch that has one before its target (`P1` of
    /// `BRA P1, target`, `!P0` of `BRA !P0, target`).
    pub fn predicate_operand(&self) -> Option<Guard> {
        self.operands
            .split_once(',')
            .and_then(|(p, _)| Guard::parse(p.trim()))
    }

    /// The target of a `BRA` (its last operand, an offset in the function), when it has one.
    pub fn branch_target(&self) -> Option<u32> {
        if self.base_opcode() != "BRA" {
            return None;
        }
        let last = self.operands.rsplit(',').next()?.trim();
        let hex = last.strip_prefix("0x")?;
        u32::from_str_radix(hex, 16).ok()
    }

    /// Whether this is a branch whose lanes can go different ways, the instruction Nsight
    /// Compute's "Divergent Branches" counts on: a `BRA` under a per-lane guard (`@P0`, not a
    /// uniform `@UP0` nor `@PT`) or with a per-lane predicate operand (`BRA !P0, target`), and
    /// an indirect `BRX`/`JMX`. `BRA.DIV` (taken when the warp is already diverged, before a
    /// warp-synchronous operation), unconditional branches and predicated `EXIT`/`RET` (whose
    /// leaving lanes are simply done) are not.
    pub fn splits_lanes(&self) -> bool {
        if self.guard.is_some_and(Guard::is_never) {
            return false;
        }
        match self.base_opcode() {
            "BRX" | "JMX" => true,
            "BRA" => {
                if self.opcode.split('.').any(|m| m == "DIV" || m == "U") {
                    return false;
                }
                let guarded = self.guard.is_some_and(|g| !g.is_uniform());
                // `BRA P1, target` / `BRA !P0, target`: a predicate operand before the target.
                let pred_operand = self.predicate_operand().is_some_and(|g| !g.is_uniform());
                guarded || pred_operand
            }
            _ => false,
        }
    }
}

/// Parses an `nvdisasm -g -c` (or `-gi`) listing. Lines it does not recognise are skipped, so
/// this never fails; an empty listing has no functions.
pub fn parse(text: &str) -> Listing {
    let mut out = Listing::default();
    let mut file_index: FxHashMap<String, u32> = FxHashMap::default();
    let mut source: Option<(u32, u32)> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix(".text.")
            && let Some(name) = rest.strip_suffix(':')
        {
            out.functions.push(SassFunction {
                name: name.to_string(),
                instructions: Vec::new(),
            });
            source = None;
            continue;
        }
        if let Some(rest) = line.strip_prefix("//##") {
            source = parse_position(rest.trim(), &mut out.files, &mut file_index);
            continue;
        }
        if let Some(rest) = line.strip_prefix("/*")
            && let Some((off, body)) = rest.split_once("*/")
            && let Ok(offset) = u32::from_str_radix(off.trim(), 16)
            && let Some(func) = out.functions.last_mut()
            && let Some(inst) = parse_instruction(offset, body, source)
        {
            func.instructions.push(inst);
        }
    }
    out
}

/// `File "PATH", line N[ inlined at ...]` → (file index, line).
fn parse_position(
    s: &str,
    files: &mut Vec<String>,
    index: &mut FxHashMap<String, u32>,
) -> Option<(u32, u32)> {
    let rest = s.strip_prefix("File \"")?;
    let (path, rest) = rest.split_once('"')?;
    let rest = rest.trim_start().strip_prefix(',')?.trim_start();
    let rest = rest.strip_prefix("line ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let line: u32 = digits.parse().ok()?;
    let fi = match index.get(path) {
        Some(&i) => i,
        None => {
            let i = files.len() as u32;
            files.push(path.to_string());
            index.insert(path.to_string(), i);
            i
        }
    };
    Some((fi, line))
}

/// `  @!P0 BRA `(.L_x_3) ;` → the instruction (None for an empty body).
fn parse_instruction(offset: u32, body: &str, source: Option<(u32, u32)>) -> Option<SassInst> {
    let body = body.trim();
    let body = body.strip_suffix(';').unwrap_or(body).trim();
    // Dual-issue braces of older listings.
    let body = body.trim_start_matches('{').trim_end_matches('}').trim();
    let (guard, rest) = match body.strip_prefix('@') {
        Some(r) => {
            let (g, rest) = r.split_once(char::is_whitespace)?;
            (Some(Guard::parse(g)?), rest.trim_start())
        }
        None => (None, body),
    };
    let (opcode, operands) = match rest.split_once(char::is_whitespace) {
        Some((o, ops)) => (o, ops.trim()),
        None => (rest, ""),
    };
    if opcode.is_empty() {
        return None;
    }
    Some(SassInst {
        offset,
        guard,
        opcode: opcode.to_string(),
        operands: operands.to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTING: &str = r#"
	.headerflags	@"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
	.section	.text._Z1kPii,"ax",@progbits
	.sectionflags	@"SHF_BARRIERS=1"
        .text._Z1kPii:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "k.cu", line 3
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0030*/               @P0 EXIT ;
	//## File "k.cu", line 5
        /*0040*/              @!P1 BRA `(.L_x_1) ;
        /*0050*/                   BRA `(.L_x_2) ;
        /*0060*/               @UP0 BRA `(.L_x_2) ;
        /*0070*/              @!P2 BRA !P0, `(.L_x_3) ;
	//## File "<cuda>/include/h.h", line 9 inlined at "k.cu", line 7
        /*0080*/                   BRA.DIV UR4, `(.L_x_4) ;
        /*0090*/               @!PT BRA `(.L_x_1) ;
        /*00a0*/                   BRX R2 -0xb0 ;
.L_x_1:
        /*00b0*/                   BRA P1, `(.L_x_5) ;
"#;

    #[test]
    fn reads_functions_guards_and_lines() {
        let l = parse(LISTING);
        assert_eq!(
            l.files,
            vec!["k.cu".to_string(), "<cuda>/include/h.h".to_string()]
        );
        assert_eq!(l.functions.len(), 1);
        let f = &l.functions[0];
        assert_eq!(f.name, "_Z1kPii");
        assert_eq!(f.instructions.len(), 12);
        assert_eq!(f.instructions[0].source, None);
        assert_eq!(f.instructions[1].source, Some((0, 3)));
        assert_eq!(f.instructions[4].opcode, "BRA");
        assert_eq!(
            f.instructions[4].guard,
            Some(Guard {
                negated: true,
                uniform: false,
                always: false,
                index: 1
            })
        );
        assert_eq!(f.instructions[8].source, Some((1, 9)));
        let splits: Vec<u32> = f
            .instructions
            .iter()
            .filter(|i| i.splits_lanes())
            .map(|i| i.offset)
            .collect();
        // @!P1 BRA, @!P2 BRA !P0, BRX, BRA P1; not EXIT, BRA, @UP0 BRA, BRA.DIV, @!PT BRA.
        assert_eq!(splits, vec![0x40, 0x70, 0xa0, 0xb0]);
    }

    #[test]
    fn garbage_gives_an_empty_listing() {
        assert!(parse("").functions.is_empty());
        let l = parse("/*zz*/ BRA ;\n//## File \"x\nnonsense\n.text.:\n/*0010*/ @ ;");
        assert_eq!(l.functions.len(), 1);
        assert!(l.functions[0].instructions.is_empty());
    }
}
