//! A text form of the IR, for people and for snapshot tests.
//!
//! ```text
//! .entry _Z3addPfS_i  // params: 3, regs: 12
//! block0:                          ; preds: -  succs: block1 block2  idom: -  ipdom: block2  loop: -
//!     inst0   ld.param.u64 %rd1, [param0+0]          // 1:5:12
//! ```
//! Instructions print their PTX mnemonic and resolved operands; each block line carries its
//! CFG edges, immediate (post-)dominators and loop; each instruction its `file:line:col`.

use crate::FunctionAnalyses;
use crate::entities::{Block, Inst};
use crate::function::{AddrBase, Function, InstData, Module, Operand};
use std::fmt::Write;
use warpscope_ptx::Mnemonic;

/// Writes every function of `module`.
pub fn print_module(module: &Module) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; PTX {}.{}, target {}, address size {}",
        module.version.0,
        module.version.1,
        module.target.join(","),
        module.address_size
    );
    for (_, g) in module.globals.iter() {
        let _ = writeln!(
            out,
            ".{} .align {} .{} {}{}  ; {} bytes{}",
            g.space,
            g.align,
            g.ty,
            g.name,
            g.dims
                .iter()
                .map(|d| d.map_or("[]".to_string(), |n| format!("[{n}]")))
                .collect::<String>(),
            g.size.map_or("unsized".to_string(), |s| s.to_string()),
            if g.init.is_some() {
                ", initialised"
            } else {
                ""
            }
        );
    }
    for (_, f) in module.funcs.iter() {
        out.push('\n');
        print_function(&mut out, module, f);
    }
    out
}

/// Writes one function with its structural analyses.
pub fn print_function(out: &mut String, module: &Module, f: &Function) {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| format!(".{} .{} {}", p.space, p.ty, p.name))
        .collect();
    let _ = writeln!(
        out,
        ".{} {}({}){}",
        f.kind,
        f.name,
        params.join(", "),
        if f.is_declaration { ";" } else { "" }
    );
    if f.is_declaration {
        return;
    }
    let a = FunctionAnalyses::compute(f);
    let names = |bs: &[Block]| -> String {
        if bs.is_empty() {
            "-".to_string()
        } else {
            bs.iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    let opt = |b: Option<Block>| b.map_or("-".to_string(), |b| b.to_string());
    for (b, data) in f.blocks.iter() {
        let loop_desc = match a.loops.innermost(b) {
            Some(l) => {
                let d = a.loops.get(l);
                if d.header == b {
                    format!("{l} header depth {}", d.depth)
                } else {
                    format!("{l} depth {}", d.depth)
                }
            }
            None => "-".to_string(),
        };
        let labels = if data.labels.is_empty() {
            String::new()
        } else {
            format!(" ({})", data.labels.join(", "))
        };
        let _ = writeln!(
            out,
            "{b}{labels}:  ; preds: {}  succs: {}{}  idom: {}  ipdom: {}  loop: {}{}",
            names(a.cfg.preds(b)),
            names(a.cfg.succs(b)),
            if a.cfg.is_exiting(b) { " exit" } else { "" },
            opt(a.domtree.idom(b)),
            opt(a.postdom.ipdom(b)),
            loop_desc,
            if a.cfg.is_reachable(b) {
                ""
            } else {
                "  unreachable"
            }
        );
        for &i in &data.insts {
            let _ = writeln!(out, "    {}", inst_to_string(module, f, i));
        }
    }
}

/// One instruction as `instN  [@p] mnemonic operands  // file:line:col`.
pub fn inst_to_string(module: &Module, f: &Function, i: Inst) -> String {
    let d: &InstData = &f.insts[i];
    let mut s = format!("{:<8}", i.to_string());
    if let Some(g) = d.guard {
        let _ = write!(
            s,
            "@{}{} ",
            if g.negated { "!" } else { "" },
            f.regs[g.reg].name
        );
    }
    let _ = write!(s, "{}", Mnemonic(d.op, &d.mods));
    for (k, op) in d.operands.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { ", " });
        write_operand(&mut s, module, f, op);
    }
    if let Some(loc) = d.loc {
        let pad = 48usize.saturating_sub(s.len());
        s.push_str(&" ".repeat(pad));
        let _ = write!(s, "  // {}:{}:{}", loc.file, loc.line, loc.col);
        if let Some((fi, l, c)) = loc.inlined_at {
            let _ = write!(s, " inlined at {fi}:{l}:{c}");
        }
    }
    s
}

fn write_operand(s: &mut String, module: &Module, f: &Function, op: &Operand) {
    let list = |s: &mut String, v: &[Operand], open: &str, close: &str| {
        s.push_str(open);
        for (k, o) in v.iter().enumerate() {
            if k > 0 {
                s.push_str(", ");
            }
            write_operand(s, module, f, o);
        }
        s.push_str(close);
    };
    match op {
        Operand::Reg(r) => {
            let _ = write!(s, "{}", f.regs[*r].name);
        }
        Operand::Not(r) => {
            let _ = write!(s, "!{}", f.regs[*r].name);
        }
        Operand::RegPair(a, b) => {
            let _ = write!(s, "{}|{}", f.regs[*a].name, f.regs[*b].name);
        }
        Operand::Special(r, d) => {
            let _ = write!(s, "{r}");
            if let Some(d) = d {
                let _ = write!(s, ".{}", d.as_str());
            }
        }
        Operand::Imm(v) => {
            let _ = write!(s, "{v}");
        }
        Operand::UImm(v) => {
            let _ = write!(s, "{v}U");
        }
        Operand::F32(b) => {
            let _ = write!(s, "0f{b:08X}");
        }
        Operand::F64(b) => {
            let _ = write!(s, "0d{b:016X}");
        }
        Operand::Global(g) => s.push_str(&module.globals[*g].name),
        Operand::Local(l) => s.push_str(&f.locals[*l].name),
        Operand::Param(p) => s.push_str(&f.params[*p as usize].name),
        Operand::Func(id) => s.push_str(&module.funcs[*id].name),
        Operand::Label(b) => {
            let _ = write!(s, "{b}");
        }
        Operand::JumpTable(t) => {
            let _ = write!(s, "jumptable{t}");
        }
        Operand::Prototype(p) => s.push_str(
            f.prototypes
                .get(*p as usize)
                .map_or("?proto", |p| p.name.as_str()),
        ),
        Operand::Addr(base, off) => {
            s.push('[');
            match base {
                AddrBase::Reg(r) => {
                    let _ = write!(s, "{}", f.regs[*r].name);
                }
                AddrBase::Global(g) => s.push_str(&module.globals[*g].name),
                AddrBase::Local(l) => s.push_str(&f.locals[*l].name),
                AddrBase::Param(p) => s.push_str(&f.params[*p as usize].name),
                AddrBase::Return(r) => s.push_str(&f.returns[*r as usize].name),
                AddrBase::Imm(v) => {
                    let _ = write!(s, "{v}");
                }
            }
            if *off != 0 || !matches!(base, AddrBase::Imm(_)) {
                let _ = write!(s, "{off:+}");
            }
            s.push(']');
        }
        Operand::Vector(v) => list(s, v, "{", "}"),
        Operand::List(v) => list(s, v, "(", ")"),
        Operand::AddrList(v) => list(s, v, "[", "]"),
        Operand::Sink => s.push('_'),
    }
}

/// The control-flow graph of `f` in Graphviz DOT: one node per block labelled with its
/// instructions' first source line, solid edges for control flow (taken edge first, labelled
/// `T`), and each block's reconvergence point (immediate post-dominator) noted in its label.
pub fn cfg_dot(f: &Function) -> String {
    let a = FunctionAnalyses::compute(f);
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", f.name.replace('"', "\\\""));
    let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
    for (b, data) in f.blocks.iter() {
        let lines: Vec<u32> = data
            .insts
            .iter()
            .filter_map(|&i| f.insts[i].loc.map(|l| l.line))
            .collect();
        let src = match (lines.iter().min(), lines.iter().max()) {
            (Some(lo), Some(hi)) if lo == hi => format!("\\nline {lo}"),
            (Some(lo), Some(hi)) => format!("\\nlines {lo}-{hi}"),
            _ => String::new(),
        };
        let term = f
            .last_inst(b)
            .map(|i| Mnemonic(f.insts[i].op, &f.insts[i].mods).to_string())
            .unwrap_or_default();
        let ipdom = a
            .postdom
            .ipdom(b)
            .map_or(String::new(), |p| format!("\\nipdom {p}"));
        let _ = writeln!(
            out,
            "  {b} [label=\"{b}{}\\n{} insts, ends {term}{src}{ipdom}\"{}];",
            data.labels
                .first()
                .map_or(String::new(), |l| format!(" ({})", l.replace('"', ""))),
            data.insts.len(),
            if a.cfg.is_exiting(b) {
                ", peripheries=2"
            } else {
                ""
            }
        );
        let succs = a.cfg.succs(b);
        let conditional = succs.len() > 1;
        for (k, s) in succs.iter().enumerate() {
            let label = if conditional && k == 0 {
                " [label=\"T\"]"
            } else {
                ""
            };
            let _ = writeln!(out, "  {b} -> {s}{label};");
        }
    }
    out.push_str("}\n");
    out
}
