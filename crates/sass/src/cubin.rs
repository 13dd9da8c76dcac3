//! Reading a cubin directly: the same [`Listing`] nvdisasm's `-g -c` listing gives, without
//! starting nvdisasm.
//!
//! A cubin is an ELF64 little-endian file. Each function's code is a section `.text.NAME` of
//! 16-byte sm_90 instructions; `.debug_line` is a DWARF (version 2) line program whose
//! `DW_LNE_set_address` operands are relocated (`.rela.debug_line`) against the symbol of the
//! function a sequence covers. ptxas writes section `info` fields ELF tools do not expect
//! (readelf warns), so only the fields used here are read, each bounds-checked: a damaged file
//! is an error, never a panic.
//!
//! **Lines.** The line program holds, for inlined code, several rows at one address: the call
//! site first, then (after NVIDIA's extended opcode 144, which names the inlining context) the
//! position inside the inlined function. nvdisasm prints, for an instruction, the last row at
//! the greatest address not above it, which is the innermost position; the same is done here.
//! A file is its directory entry joined to its name, as nvdisasm prints it.
//!
//! **Instructions.** Only what [`SassInst::splits_lanes`] needs is decoded (facts about the
//! sm_90 encoding, worked out by comparing encodings with nvdisasm's text): the low 12 bits of
//! the first 64-bit word are the opcode, bits 12–14 the guard predicate (7: `PT`) and bit 15 its
//! negation; whether the guard is a uniform predicate (`UP`) follows from the opcode. For the
//! branches `BRA` (0x947), `BRX` (0x949) and `JMX` (0x94c): bits 87–89 are the predicate operand
//! (7: `PT`, printed only when not `PT`) and bit 90 its negation; `BRA`'s bits 32–33 its mode
//! (`.U`, `.DIV`, `.CONV`), bit 84 `.ANY` of `.U`, bit 91 a uniform register operand, bits 85
//! and 86 `.INC`/`.DEC`; bits 24–31 the register operand. Other instructions get their base
//! mnemonic (or `OP.0x…` for an opcode outside the table below) and no operands; `IMAD.WIDE`
//! and `IMAD.HI` (0x?25, 0x?27) keep that modifier, which the model's pipe charges read.

use rustc_hash::FxHashMap;

use crate::listing::{Guard, Listing, SassFunction, SassInst};

/// Why a cubin could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the cubin: {0}")]
pub struct CubinError(String);

fn err<T>(what: impl Into<String>) -> Result<T, CubinError> {
    Err(CubinError(what.into()))
}

/// Reads the functions of a cubin and the CUDA line of each instruction.
pub fn read(cubin: &[u8]) -> Result<Listing, CubinError> {
    let elf = Elf::parse(cubin)?;
    let symbols = elf.symbols()?;
    let mut files = FileTable::default();
    let mut events: FxHashMap<usize, Vec<Event>> = FxHashMap::default();
    for (i, s) in elf.sections.iter().enumerate() {
        if s.name == ".debug_line" {
            let relocs = elf.relocations_of(i, &symbols)?;
            read_line_program(s.data, &relocs, &mut files, &mut events)?;
        }
    }
    let mut out = Listing::default();
    // Files are numbered in order of first use, as the listing's comments name them.
    let mut renumber: FxHashMap<u32, u32> = FxHashMap::default();
    for (i, s) in elf.sections.iter().enumerate() {
        let Some(name) = s.name.strip_prefix(".text.") else {
            continue;
        };
        if s.data.len() % 16 != 0 {
            return err(format!(
                "section {} is {} bytes, not whole 16-byte instructions",
                s.name,
                s.data.len()
            ));
        }
        let mut evs = events.remove(&i).unwrap_or_default();
        evs.sort_by_key(|e| e.addr);
        let mut instructions = Vec::with_capacity(s.data.len() / 16);
        for (k, chunk) in s.data.chunks_exact(16).enumerate() {
            let offset = (k * 16) as u64;
            let Ok(offset32) = u32::try_from(offset) else {
                return err(format!("section {} is too large", s.name));
            };
            let w0 = u64::from_le_bytes(chunk[..8].try_into().unwrap_or_default());
            let w1 = u64::from_le_bytes(chunk[8..].try_into().unwrap_or_default());
            let at = evs.partition_point(|e| e.addr <= offset);
            let source = at
                .checked_sub(1)
                .and_then(|j| evs[j].pos)
                .map(|(file, line)| {
                    let next = renumber.len() as u32;
                    let f = *renumber.entry(file).or_insert_with(|| {
                        out.files.push(files.paths[file as usize].clone());
                        next
                    });
                    (f, line)
                });
            let mut inst = decode(offset32, w0, w1);
            inst.source = source;
            instructions.push(inst);
        }
        out.functions.push(SassFunction {
            name: name.to_string(),
            instructions,
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// ELF

struct Section<'a> {
    name: &'a str,
    kind: u32,
    info: u32,
    data: &'a [u8],
}

struct Elf<'a> {
    sections: Vec<Section<'a>>,
}

#[derive(Clone, Copy)]
struct Symbol {
    value: u64,
    section: u16,
}

const SHT_SYMTAB: u32 = 2;
const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;

fn slice<'a>(d: &'a [u8], off: u64, len: u64, what: &str) -> Result<&'a [u8], CubinError> {
    let end = off.checked_add(len);
    match (
        usize::try_from(off),
        end.and_then(|e| usize::try_from(e).ok()),
    ) {
        (Ok(o), Some(e)) if e <= d.len() => Ok(&d[o..e]),
        _ => err(format!("{what} lies outside the file")),
    }
}

fn le_u16(d: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([d[at], d[at + 1]])
}

fn le_u32(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

fn le_u64(d: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[at..at + 8]);
    u64::from_le_bytes(b)
}

impl<'a> Elf<'a> {
    fn parse(d: &'a [u8]) -> Result<Elf<'a>, CubinError> {
        if d.len() < 64 || &d[..4] != b"\x7fELF" {
            return err("not an ELF file");
        }
        if d[4] != 2 || d[5] != 1 {
            return err("not a 64-bit little-endian ELF file");
        }
        let shoff = le_u64(d, 0x28);
        let shentsize = u64::from(le_u16(d, 0x3a));
        let shnum = u64::from(le_u16(d, 0x3c));
        let shstrndx = usize::from(le_u16(d, 0x3e));
        if shentsize < 64 {
            return err("section headers too small");
        }
        let table = slice(d, shoff, shentsize * shnum, "the section header table")?;
        let mut raw = Vec::with_capacity(shnum as usize);
        for h in table.chunks_exact(shentsize as usize) {
            let kind = le_u32(h, 4);
            let offset = le_u64(h, 24);
            let size = le_u64(h, 32);
            let data = if kind == SHT_NOBITS || size == 0 {
                &d[..0]
            } else {
                slice(d, offset, size, "a section")?
            };
            raw.push((le_u32(h, 0), kind, le_u32(h, 44), data));
        }
        let names = match raw.get(shstrndx) {
            Some(s) => s.3,
            None if raw.is_empty() => &d[..0],
            None => return err("no section name table"),
        };
        let mut sections = Vec::with_capacity(raw.len());
        for (name, kind, info, data) in raw {
            sections.push(Section {
                name: c_str(names, name as usize)?,
                kind,
                info,
                data,
            });
        }
        Ok(Elf { sections })
    }

    /// The symbol table (empty when the file has none).
    fn symbols(&self) -> Result<Vec<Symbol>, CubinError> {
        let Some(s) = self.sections.iter().find(|s| s.kind == SHT_SYMTAB) else {
            return Ok(Vec::new());
        };
        if s.data.len() % 24 != 0 {
            return err("symbol table of a size not a multiple of 24");
        }
        Ok(s.data
            .chunks_exact(24)
            .map(|e| Symbol {
                value: le_u64(e, 8),
                section: le_u16(e, 6),
            })
            .collect())
    }

    /// The relocations applying to section `target`: offset in it → (section index, address).
    fn relocations_of(
        &self,
        target: usize,
        symbols: &[Symbol],
    ) -> Result<FxHashMap<u64, (usize, u64)>, CubinError> {
        let mut out = FxHashMap::default();
        for s in &self.sections {
            if s.kind != SHT_RELA || s.info as usize != target {
                continue;
            }
            if s.data.len() % 24 != 0 {
                return err("relocation section of a size not a multiple of 24");
            }
            for r in s.data.chunks_exact(24) {
                let offset = le_u64(r, 0);
                let sym = (le_u64(r, 8) >> 32) as usize;
                let addend = le_u64(r, 16);
                let Some(sym) = symbols.get(sym) else {
                    return err("relocation against a symbol the file does not have");
                };
                out.insert(
                    offset,
                    (usize::from(sym.section), sym.value.wrapping_add(addend)),
                );
            }
        }
        Ok(out)
    }
}

fn c_str(d: &[u8], at: usize) -> Result<&str, CubinError> {
    let Some(rest) = d.get(at..) else {
        return err("name outside its string table");
    };
    let Some(end) = rest.iter().position(|&b| b == 0) else {
        return err("unterminated name");
    };
    std::str::from_utf8(&rest[..end]).or_else(|_| err("name not UTF-8"))
}

// ---------------------------------------------------------------------------------------------
// .debug_line

/// Source paths by index, one entry per distinct path.
#[derive(Default)]
struct FileTable {
    paths: Vec<String>,
    index: FxHashMap<String, u32>,
}

impl FileTable {
    fn intern(&mut self, path: String) -> u32 {
        if let Some(&i) = self.index.get(&path) {
            return i;
        }
        let i = self.paths.len() as u32;
        self.paths.push(path.clone());
        self.index.insert(path, i);
        i
    }
}

/// A row of the line program (`pos` the file and line), or the end of a sequence (`None`).
#[derive(Debug, Clone, Copy)]
struct Event {
    addr: u64,
    pos: Option<(u32, u32)>,
}

struct Reader<'a> {
    d: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], CubinError> {
        match self.at.checked_add(n) {
            Some(end) if end <= self.d.len() => {
                let s = &self.d[self.at..end];
                self.at = end;
                Ok(s)
            }
            _ => err(".debug_line ends early"),
        }
    }
    fn u8(&mut self) -> Result<u8, CubinError> {
        Ok(self.bytes(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, CubinError> {
        Ok(le_u16(self.bytes(2)?, 0))
    }
    fn u32(&mut self) -> Result<u32, CubinError> {
        Ok(le_u32(self.bytes(4)?, 0))
    }
    fn u64(&mut self) -> Result<u64, CubinError> {
        Ok(le_u64(self.bytes(8)?, 0))
    }
    fn uleb(&mut self) -> Result<u64, CubinError> {
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.u8()?;
            if shift < 64 {
                v |= u64::from(b & 0x7f) << shift;
            }
            shift = shift.saturating_add(7);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
    }
    fn sleb(&mut self) -> Result<i64, CubinError> {
        let mut v = 0i64;
        let mut shift = 0u32;
        loop {
            let b = self.u8()?;
            if shift < 64 {
                v |= i64::from(b & 0x7f) << shift;
            }
            shift = shift.saturating_add(7);
            if b & 0x80 == 0 {
                if shift < 64 && b & 0x40 != 0 {
                    v |= -1i64 << shift;
                }
                return Ok(v);
            }
        }
    }
    fn c_str(&mut self) -> Result<&'a str, CubinError> {
        let s = c_str(self.d, self.at)?;
        self.at += s.len() + 1;
        Ok(s)
    }
}

/// Runs every line program in `.debug_line`, adding each row to the events of the section its
/// sequence's relocated address lies in.
fn read_line_program(
    d: &[u8],
    relocs: &FxHashMap<u64, (usize, u64)>,
    files: &mut FileTable,
    events: &mut FxHashMap<usize, Vec<Event>>,
) -> Result<(), CubinError> {
    let mut r = Reader { d, at: 0 };
    while r.at < d.len() {
        let (len, wide) = match r.u32()? {
            0xffff_ffff => (r.u64()?, true),
            n => (u64::from(n), false),
        };
        let Some(unit_end) = usize::try_from(len)
            .ok()
            .and_then(|l| r.at.checked_add(l))
            .filter(|&e| e <= d.len())
        else {
            return err("a line table runs past .debug_line");
        };
        let version = r.u16()?;
        if !(2..=4).contains(&version) {
            return err(format!("line table version {version} is not read"));
        }
        let header_len = if wide { r.u64()? } else { u64::from(r.u32()?) };
        let Some(program) = usize::try_from(header_len)
            .ok()
            .and_then(|l| r.at.checked_add(l))
            .filter(|&p| p <= unit_end)
        else {
            return err("a line table header runs past its table");
        };
        let min_inst = u64::from(r.u8()?);
        if version >= 4 {
            r.u8()?; // maximum operations per instruction
        }
        r.u8()?; // default is_stmt
        let line_base = i64::from(r.u8()? as i8);
        let line_range = r.u8()?;
        let opcode_base = r.u8()?;
        if line_range == 0 {
            return err("line table with a line range of 0");
        }
        let std_lengths = r.bytes(usize::from(opcode_base.saturating_sub(1)))?;
        let mut dirs: Vec<&str> = Vec::new();
        loop {
            let s = r.c_str()?;
            if s.is_empty() {
                break;
            }
            dirs.push(s);
        }
        // Index 0 of the file numbers is unused before DWARF 5.
        let mut unit_files: Vec<Option<u32>> = vec![None];
        loop {
            let name = r.c_str()?;
            if name.is_empty() {
                break;
            }
            let dir = r.uleb()?;
            r.uleb()?; // modification time
            r.uleb()?; // length
            unit_files.push(Some(files.intern(join(&dirs, dir, name))));
        }
        r.at = program;
        let mut prog = Reader {
            d: &d[..unit_end],
            at: program,
        };
        run_program(
            &mut prog,
            LineParams {
                min_inst,
                line_base,
                line_range,
                opcode_base,
                std_lengths,
            },
            relocs,
            files,
            &mut unit_files,
            &dirs,
            events,
        )?;
        r.at = unit_end;
    }
    Ok(())
}

fn join(dirs: &[&str], dir: u64, name: &str) -> String {
    match dir
        .checked_sub(1)
        .and_then(|i| dirs.get(usize::try_from(i).ok()?))
    {
        Some(d) if !name.starts_with('/') && !d.is_empty() => format!("{d}/{name}"),
        _ => name.to_string(),
    }
}

struct LineParams<'a> {
    min_inst: u64,
    line_base: i64,
    line_range: u8,
    opcode_base: u8,
    std_lengths: &'a [u8],
}

#[allow(clippy::too_many_arguments)]
fn run_program(
    r: &mut Reader,
    p: LineParams,
    relocs: &FxHashMap<u64, (usize, u64)>,
    files: &mut FileTable,
    unit_files: &mut Vec<Option<u32>>,
    dirs: &[&str],
    events: &mut FxHashMap<usize, Vec<Event>>,
) -> Result<(), CubinError> {
    // The state machine; `section` is where the sequence's relocated address lies (`None`
    // until a relocated DW_LNE_set_address: rows before it belong to no function).
    let mut section: Option<usize> = None;
    let mut addr = 0u64;
    let mut file = 1u64;
    let mut line = 1i64;
    fn emit(
        events: &mut FxHashMap<usize, Vec<Event>>,
        unit_files: &[Option<u32>],
        section: Option<usize>,
        addr: u64,
        pos: Option<(u64, i64)>,
    ) {
        let Some(s) = section else {
            return;
        };
        let pos = pos.and_then(|(f, l)| {
            let f = unit_files
                .get(usize::try_from(f).ok()?)
                .copied()
                .flatten()?;
            Some((f, u32::try_from(l).ok()?))
        });
        events.entry(s).or_default().push(Event { addr, pos });
    }
    while r.at < r.d.len() {
        let op = r.u8()?;
        if op >= p.opcode_base {
            let adj = op - p.opcode_base;
            addr = addr.wrapping_add(u64::from(adj / p.line_range).wrapping_mul(p.min_inst));
            line = line.wrapping_add(p.line_base + i64::from(adj % p.line_range));
            emit(events, unit_files, section, addr, Some((file, line)));
            continue;
        }
        match op {
            0 => {
                let len = r.uleb()?;
                let Ok(len) = usize::try_from(len) else {
                    return err("extended line opcode too long");
                };
                if len == 0 {
                    continue;
                }
                let start = r.at;
                let body = r.bytes(len)?;
                match body[0] {
                    1 => {
                        emit(events, unit_files, section, addr, None);
                        section = None;
                        addr = 0;
                        file = 1;
                        line = 1;
                    }
                    2 => {
                        let operand = (start + 1) as u64;
                        match relocs.get(&operand) {
                            Some(&(s, a)) => {
                                section = Some(s);
                                addr = a;
                            }
                            None => {
                                section = None;
                                let mut v = [0u8; 8];
                                let raw = &body[1..];
                                let n = raw.len().min(8);
                                v[..n].copy_from_slice(&raw[..n]);
                                addr = u64::from_le_bytes(v);
                            }
                        }
                    }
                    3 => {
                        let mut fr = Reader { d: body, at: 1 };
                        let name = fr.c_str()?;
                        let dir = fr.uleb()?;
                        let path = join(dirs, dir, name);
                        unit_files.push(Some(files.intern(path)));
                    }
                    // NVIDIA's inlining records (144) and anything else: no row.
                    _ => {}
                }
            }
            1 => emit(events, unit_files, section, addr, Some((file, line))),
            2 => addr = addr.wrapping_add(r.uleb()?.wrapping_mul(p.min_inst)),
            3 => line = line.wrapping_add(r.sleb()?),
            4 => file = r.uleb()?,
            5 => {
                r.uleb()?;
            }
            6 | 7 | 10 | 11 => {}
            8 => {
                let adj = 255 - p.opcode_base;
                addr = addr.wrapping_add(u64::from(adj / p.line_range).wrapping_mul(p.min_inst));
            }
            9 => addr = addr.wrapping_add(u64::from(r.u16()?)),
            _ => {
                // A standard opcode this reader does not know: skip its ULEB128 operands.
                let n = p.std_lengths.get(usize::from(op) - 1).copied().unwrap_or(0);
                for _ in 0..n {
                    r.uleb()?;
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Instructions

const BRA: u16 = 0x947;
const BRX: u16 = 0x949;
const JMX: u16 = 0x94c;

/// Decodes what [`SassInst::splits_lanes`] reads of one instruction (`source` left empty).
fn decode(offset: u32, w0: u64, w1: u64) -> SassInst {
    let op = (w0 & 0xfff) as u16;
    let (name, uniform_guard) = match OPCODES.binary_search_by_key(&op, |e| e.0) {
        Ok(i) => (OPCODES[i].1.to_string(), OPCODES[i].2),
        Err(_) => (format!("OP.{op:#05x}"), false),
    };
    let g = (w0 >> 12) & 7;
    let guard_negated = (w0 >> 15) & 1 == 1;
    let guard = (g != 7 || guard_negated).then_some(Guard {
        negated: guard_negated,
        uniform: uniform_guard,
        always: g == 7,
        index: g as u8,
    });
    let (opcode, operands) = match op {
        BRA | BRX | JMX => branch(op, &name, offset, w0, w1),
        _ => (name, String::new()),
    };
    SassInst {
        offset,
        guard,
        opcode,
        operands,
        source: None,
    }
}

/// The opcode with modifiers and the operands of `BRA`, `BRX`, `JMX`, as nvdisasm prints them
/// (the target as an offset in the function).
fn branch(op: u16, name: &str, offset: u32, w0: u64, w1: u64) -> (String, String) {
    let mut opcode = name.to_string();
    match (w1 >> 21) & 3 {
        1 => opcode.push_str(".INC"),
        2 => opcode.push_str(".DEC"),
        _ => {}
    }
    let ur_operand = op == BRA && (w1 >> 27) & 1 == 1;
    if op == BRA {
        let mode = (w0 >> 32) & 3;
        opcode.push_str(match (mode, ur_operand) {
            (0, true) => ".INVALID0",
            (1, true) => ".INVALID1",
            (1, false) if (w1 >> 20) & 1 == 1 => ".U.ANY",
            (1, false) => ".U",
            (2, _) => ".DIV",
            (3, _) => ".CONV",
            _ => "",
        });
    }
    let mut operands = Vec::new();
    let p = (w1 >> 23) & 7;
    let p_neg = (w1 >> 26) & 1 == 1;
    if p != 7 || p_neg {
        let bang = if p_neg { "!" } else { "" };
        operands.push(if p == 7 {
            format!("{bang}PT")
        } else {
            format!("{bang}P{p}")
        });
    }
    let reg = (w0 >> 24) & 0xff;
    // The target: bits 16-23 and 34-81 of the instruction, in 4-byte units, relative to the
    // next instruction.
    let units = ((w0 >> 16) & 0xff) | (((w0 >> 34) | (w1 << 30)) << 8);
    let rel = (((units << 8) as i64) >> 8).wrapping_mul(4);
    let target = i64::from(offset).wrapping_add(16).wrapping_add(rel);
    let target = signed_hex(target);
    match op {
        BRA => {
            if ur_operand {
                operands.push(format!("UR{reg}"));
            }
            operands.push(target);
        }
        _ => {
            let r = if reg == 255 {
                "RZ".to_string()
            } else {
                format!("R{reg}")
            };
            operands.push(format!("{r} {}", signed_hex(rel)));
        }
    }
    (opcode, operands.join(", "))
}

fn signed_hex(v: i64) -> String {
    if v < 0 {
        format!("-{:#x}", v.unsigned_abs())
    } else {
        format!("{v:#x}")
    }
}

/// Opcode (low 12 bits) → base mnemonic, and whether the guard is a uniform predicate, for
/// every opcode in the sm_90 code ptxas 13.0 made of the 184 real-world and corpus modules, and
/// the other control-flow opcodes (`JMX`, `JMP`, `BREAK`, `KILL`, `PREEXIT`). An opcode outside
/// it is named `OP.0x…` with a per-lane guard; which instructions split lanes does not depend
/// on the table.
const OPCODES: &[(u16, &str, bool)] = &[
    (0x202, "MOV", false),
    (0x207, "SEL", false),
    (0x208, "FSEL", false),
    (0x209, "FMNMX", false),
    (0x20a, "FSET", false),
    (0x20b, "FSETP", false),
    (0x20c, "ISETP", false),
    (0x20f, "VIMNMX3", false),
    (0x210, "IADD3", false),
    (0x211, "LEA", false),
    (0x212, "LOP3", false),
    (0x213, "IABS", false),
    (0x219, "SHF", false),
    (0x220, "FMUL", false),
    (0x221, "FADD", false),
    (0x223, "FFMA", false),
    (0x224, "IMAD", false),
    (0x225, "IMAD.WIDE", false),
    (0x227, "IMAD.HI", false),
    (0x228, "DMUL", false),
    (0x229, "DADD", false),
    (0x22a, "DSETP", false),
    (0x22b, "DFMA", false),
    (0x230, "HADD2", false),
    (0x231, "HFMA2", false),
    (0x235, "HFMA2", false),
    (0x23e, "F2FP", false),
    (0x240, "HMNMX2", false),
    (0x245, "I2FP", false),
    (0x246, "VIADDMNMX", false),
    (0x248, "VIMNMX", false),
    (0x287, "USEL", true),
    (0x28c, "UISETP", true),
    (0x290, "UIADD3", true),
    (0x291, "ULEA", true),
    (0x292, "ULOP3", true),
    (0x299, "USHF", true),
    (0x2a4, "UIMAD", true),
    (0x2a5, "UIMAD", true),
    (0x2bd, "UFLO", true),
    (0x2be, "UBREV", true),
    (0x2bf, "UPOPC", true),
    (0x2ca, "R2UR", false),
    (0x300, "FLO", false),
    (0x301, "BREV", false),
    (0x302, "FCHK", false),
    (0x305, "F2I", false),
    (0x306, "I2F", false),
    (0x307, "FRND", false),
    (0x308, "MUFU", false),
    (0x309, "POPC", false),
    (0x310, "F2F", false),
    (0x311, "F2I", false),
    (0x312, "I2F", false),
    (0x313, "FRND", false),
    (0x31d, "BAR", false),
    (0x343, "CALL", false),
    (0x344, "CALL", false),
    (0x348, "WARPSYNC", false),
    (0x355, "BMOV", false),
    (0x356, "BMOV", false),
    (0x35d, "NANOSLEEP", false),
    (0x387, "STL", false),
    (0x388, "STS", false),
    (0x389, "SHFL", false),
    (0x38d, "ATOMS", false),
    (0x3a1, "MATCH", false),
    (0x3a9, "ATOMG", false),
    (0x3ba, "UBLKCP", true),
    (0x3c4, "REDUX", false),
    (0x3c6, "FENCE", false),
    (0x419, "SHF", false),
    (0x421, "FADD", false),
    (0x423, "FFMA", false),
    (0x424, "IMAD", false),
    (0x429, "DADD", false),
    (0x42a, "DSETP", false),
    (0x42b, "DFMA", false),
    (0x435, "HFMA2", false),
    (0x446, "VIADDMNMX", false),
    (0x4a4, "UIMAD", true),
    (0x589, "SHFL", false),
    (0x5a7, "SYNCS", false),
    (0x5ab, "CGAERRBAR", false),
    (0x5b2, "SYNCS", true),
    (0x802, "MOV", false),
    (0x803, "P2R", false),
    (0x804, "R2P", false),
    (0x805, "CS2R", false),
    (0x806, "VOTE", false),
    (0x807, "SEL", false),
    (0x808, "FSEL", false),
    (0x809, "FMNMX", false),
    (0x80b, "FSETP", false),
    (0x80c, "ISETP", false),
    (0x810, "IADD3", false),
    (0x811, "LEA", false),
    (0x812, "LOP3", false),
    (0x816, "PRMT", false),
    (0x819, "SHF", false),
    (0x81c, "PLOP3", false),
    (0x820, "FMUL", false),
    (0x823, "FFMA", false),
    (0x824, "IMAD", false),
    (0x825, "IMAD.WIDE", false),
    (0x827, "IMAD.HI", false),
    (0x828, "DMUL", false),
    (0x82b, "DFMA", false),
    (0x82d, "PREEXIT", false),
    (0x82f, "ELECT", false),
    (0x835, "HFMA2", false),
    (0x836, "VIADD", false),
    (0x845, "I2FP", false),
    (0x846, "VIADDMNMX", false),
    (0x848, "VIMNMX", false),
    (0x882, "UMOV", true),
    (0x886, "VOTEU", false),
    (0x887, "USEL", true),
    (0x88c, "UISETP", true),
    (0x890, "UIADD3", true),
    (0x891, "ULEA", true),
    (0x892, "ULOP3", true),
    (0x896, "UPRMT", true),
    (0x899, "USHF", true),
    (0x8a4, "UIMAD", true),
    (0x8a5, "UIMAD", true),
    (0x902, "FCHK", false),
    (0x906, "I2F", false),
    (0x908, "MUFU", false),
    (0x918, "NOP", false),
    (0x919, "S2R", false),
    (0x91a, "DEPBAR", false),
    (0x91b, "ENDCOLLECTIVE", false),
    (0x941, "BSYNC", false),
    (0x942, "BREAK", false),
    (0x943, "CALL", false),
    (0x944, "CALL", false),
    (0x945, "BSSY", false),
    (0x946, "YIELD", false),
    (0x947, "BRA", false),
    (0x948, "WARPSYNC", false),
    (0x949, "BRX", false),
    (0x94a, "JMP", false),
    (0x94c, "JMX", false),
    (0x94d, "EXIT", false),
    (0x94e, "LEPC", false),
    (0x950, "RET", false),
    (0x95b, "KILL", false),
    (0x95c, "BPT", false),
    (0x95d, "NANOSLEEP", false),
    (0x980, "LD", false),
    (0x981, "LDG", false),
    (0x983, "LDL", false),
    (0x984, "LDS", false),
    (0x985, "ST", false),
    (0x986, "STG", false),
    (0x987, "STL", false),
    (0x988, "STS", false),
    (0x989, "SHFL", false),
    (0x98a, "ATOM", false),
    (0x98c, "ATOMS", false),
    (0x98e, "REDG", false),
    (0x98f, "CCTL", false),
    (0x992, "MEMBAR", false),
    (0x9a6, "REDG", false),
    (0x9a7, "SYNCS", false),
    (0x9a8, "ATOMG", false),
    (0x9ab, "ERRBAR", false),
    (0x9af, "LDGDEPBAR", false),
    (0x9b0, "ARRIVES", false),
    (0x9b1, "SYNCS", false),
    (0x9c3, "S2UR", true),
    (0xab9, "ULDC", true),
    (0xabb, "ULDC", true),
    (0xb1d, "BAR", false),
    (0xb82, "LDC", false),
    (0xc02, "MOV", false),
    (0xc07, "SEL", false),
    (0xc08, "FSEL", false),
    (0xc09, "FMNMX", false),
    (0xc0b, "FSETP", false),
    (0xc0c, "ISETP", false),
    (0xc10, "IADD3", false),
    (0xc11, "LEA", false),
    (0xc12, "LOP3", false),
    (0xc19, "SHF", false),
    (0xc20, "FMUL", false),
    (0xc23, "FFMA", false),
    (0xc24, "IMAD", false),
    (0xc25, "IMAD.WIDE", false),
    (0xc27, "IMAD.HI", false),
    (0xc28, "DMUL", false),
    (0xc2b, "DFMA", false),
    (0xc36, "VIADD", false),
    (0xc3e, "F2FP", false),
    (0xc45, "I2FP", false),
    (0xc46, "VIADDMNMX", false),
    (0xc48, "VIMNMX", false),
    (0xc82, "UMOV", true),
    (0xd00, "FLO", false),
    (0xd02, "FCHK", false),
    (0xd06, "I2F", false),
    (0xd08, "MUFU", false),
    (0xd09, "POPC", false),
    (0xd12, "I2F", false),
    (0xe21, "FADD", false),
    (0xe23, "FFMA", false),
    (0xe24, "IMAD", false),
    (0xe25, "IMAD.WIDE", false),
    (0xe29, "DADD", false),
    (0xe2a, "DSETP", false),
    (0xe2b, "DFMA", false),
    (0xf60, "TEX", false),
    (0xf89, "SHFL", false),
    (0xf8c, "ATOMS", false),
    (0xfae, "LDGSTS", false),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BranchAtLine, LineBranches};

    /// Encodings from ptxas 13.0's sm_90 code, with nvdisasm's text for each.
    #[test]
    fn decodes_the_branch_forms() {
        let cases: &[(u32, u64, u64, &str, &str, &str, bool)] = &[
            // offset, words, guard, opcode, operands, splits lanes
            (
                0x0,
                0xfffffffc00cc1947,
                0xfec000383ffff,
                "@P1",
                "BRA",
                "-0xc0",
                true,
            ),
            (
                0x270,
                0xfc8947,
                0xfec0003800000,
                "@!P0",
                "BRA",
                "0x670",
                true,
            ),
            (
                0x0,
                0xfffffffc00fc7947,
                0xfc0000383ffff,
                "",
                "BRA",
                "0x0",
                false,
            ),
            (
                0x10,
                0x4002ca947,
                0xfea0004000000,
                "@!P2",
                "BRA",
                "!P0, 0x4d0",
                true,
            ),
            (
                0x10,
                0x800688947,
                0xfea0000800000,
                "@!P0",
                "BRA",
                "P1, 0x9c0",
                true,
            ),
            (
                0x0,
                0x2048c7947,
                0xfea000b800000,
                "",
                "BRA.DIV",
                "UR4, 0x240",
                false,
            ),
            (
                0x0,
                0x204a48947,
                0x2fea000b800000,
                "@!P0",
                "BRA.DIV",
                "UR4, 0x2a0",
                false,
            ),
            (
                0x90,
                0xfffffffd00d81947,
                0xfd8000393ffff,
                "@P1",
                "BRA.U.ANY",
                "0x0",
                false,
            ),
            (
                0x0,
                0xfffffff00a7c7949,
                0xfea000383ffff,
                "",
                "BRX",
                "R10 -0xe10",
                true,
            ),
            (
                0x0,
                0xfffffff00a7c794c,
                0xfea000383ffff,
                "",
                "JMX",
                "R10 -0xe10",
                true,
            ),
            (0x90, 0x94d, 0xfea0003800000, "@P0", "EXIT", "", false),
            (0x0, 0x48ab9, 0xfe20000000800, "@!UP0", "ULDC", "", false),
            (0x0, 0x7918, 0xfc00000000000, "", "NOP", "", false),
            (
                0x0,
                0xfffffffc00cc1947 | 0xf000,
                0xfec000383ffff,
                "@!PT",
                "BRA",
                "-0xc0",
                false,
            ),
        ];
        for &(off, w0, w1, guard, opcode, operands, splits) in cases {
            let i = decode(off, w0, w1);
            let g = i.guard.map_or(String::new(), |g| {
                format!(
                    "@{}{}P{}",
                    if g.negated { "!" } else { "" },
                    if g.uniform { "U" } else { "" },
                    if g.always {
                        "T".to_string()
                    } else {
                        ((w0 >> 12) & 7).to_string()
                    }
                )
            });
            assert_eq!(
                (
                    g.as_str(),
                    i.opcode.as_str(),
                    i.operands.as_str(),
                    i.splits_lanes()
                ),
                (guard, opcode, operands, splits),
                "{w0:#x} {w1:#x}"
            );
        }
        assert_eq!(decode(0, 0xfff, 0).opcode, "OP.0xfff");
    }

    /// `IMAD.HI` and `IMAD.WIDE` (opcodes 0x?27 and 0x?25) are named with their modifier: the
    /// model charges them the IMAD pipe twice (before, both read as plain `IMAD`). Encodings
    /// and names from nvdisasm (`IMAD.HI.U32 R4, R4, UR6, RZ`, `IMAD.WIDE.U32 R2, R5, 0x4, R2`,
    /// `IMAD R4, R5, 0x3, RZ`; `scripts/h100/model_v12rates.cu`).
    #[test]
    fn wide_and_high_imad_keep_their_modifier() {
        assert_eq!(decode(0, 0x0000000604047c27, 0).opcode, "IMAD.HI");
        assert_eq!(decode(0, 0x0000000405027825, 0).opcode, "IMAD.WIDE");
        assert_eq!(decode(0, 0x0000000305047824, 0).opcode, "IMAD");
    }

    /// The cubin ptxas 13.0.88 makes of `tests/data/lowering.ptx`, read without any tool.
    #[test]
    fn reads_the_lines_of_a_cubin() {
        let bytes = include_bytes!("../tests/data/lowering.cubin");
        let l = read(bytes).expect("reads");
        let t = LineBranches::new(&l, "test");
        let file = "crates/sass/tests/data/lowering.cu";
        assert_eq!(l.files, vec![file.to_string()]);
        assert_eq!(
            t.branch_at(&["_Z11stores_keptPKfPfS1_i"], file, 9),
            BranchAtLine::Kept
        );
        assert_eq!(
            t.branch_at(&["_Z15long_predicatedPKfPfi"], file, 21),
            BranchAtLine::None
        );
        assert_eq!(
            t.branch_at(&["_Z9tail_exitPKiPii"], file, 37),
            BranchAtLine::None
        );
        assert_eq!(
            t.branch_at(&["_Z11shared_linePKfS0_ii"], file, 55),
            BranchAtLine::Kept
        );
        assert_eq!(
            t.branch_at(&["_Z12moved_searchPKiS0_Pi"], file, 82),
            BranchAtLine::None
        );
        assert_eq!(
            t.branch_at(&["_Z12moved_searchPKiS0_Pi"], file, 88),
            BranchAtLine::Kept
        );
        assert_eq!(
            t.branch_at(&["_Z9tail_exitPKiPii"], file, 1),
            BranchAtLine::Unknown
        );
    }

    #[test]
    fn leb128_and_paths() {
        let mut r = Reader {
            d: &[0xe5, 0x8e, 0x26, 0x7f, 0x80, 0x7f, 0xff],
            at: 0,
        };
        assert_eq!(r.uleb(), Ok(624_485));
        assert_eq!(r.sleb(), Ok(-1));
        assert_eq!(r.sleb(), Ok(-128));
        assert!(r.uleb().is_err());
        assert_eq!(join(&["a/b"], 1, "c.cu"), "a/b/c.cu");
        assert_eq!(join(&["a/b"], 1, "/x/c.cu"), "/x/c.cu");
        assert_eq!(join(&["a/b"], 0, "c.cu"), "c.cu");
        assert_eq!(join(&["a/b"], 7, "c.cu"), "c.cu");
    }
}
