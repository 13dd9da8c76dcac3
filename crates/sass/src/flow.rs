//! The SASS's own control flow: basic blocks, their successors and the loops they are in.
//!
//! ptxas moves code between loops (loop-invariant code hoisted out of a loop keeps the line of
//! the PTX instruction it came from, so a line table alone puts it back in the loop). The loop
//! depth of each SASS instruction, read here from the SASS's branches, says how often it runs
//! relative to the PTX block it came from.
//!
//! Blocks start at offset 0, at every branch target and after every `BRA`, `BRX`, `JMX`,
//! `JMP`, `EXIT`, `RET`, `BREAK` and `BSYNC`. A block falls through to the next unless it ends
//! in an unconditional `BRA`/`JMP` (no guard or `@PT`, no predicate operand) or an unguarded
//! `EXIT`/`RET`; a `BRA` also goes to its target (`BRX`/`JMX` targets are not known: only the
//! fall-through is kept). A back edge is an edge to a block that does not start after the
//! branch's block; its natural loop is its target and every block that reaches its source
//! without passing the target. Loops with the same header are one loop. Limit, stated: a
//! forward jump laid out backwards (an exit block placed before the code that jumps to it) is
//! taken for a loop; that can only put SASS in more loops than it is, so it can only leave
//! hoisted code uncounted as hoisted, never move code out of a loop it is in.

use crate::listing::SassInst;

fn base(op: &str) -> &str {
    op.split('.').next().unwrap_or("")
}

/// The branch target of a `BRA` (its last operand, an offset in the function), when it has one.
fn target(inst: &SassInst) -> Option<u32> {
    if base(&inst.opcode) != "BRA" {
        return None;
    }
    let last = inst.operands.rsplit(',').next()?.trim();
    let hex = last.strip_prefix("0x")?;
    u32::from_str_radix(hex, 16).ok()
}

/// Whether control never falls through `inst` (an unconditional jump or exit).
fn ends_unconditionally(inst: &SassInst) -> bool {
    let always = inst.guard.is_none_or(|g| g.always && !g.negated);
    match base(&inst.opcode) {
        // `BRA P1, target` has a predicate operand before the target
        "BRA" => always && !inst.operands.contains(','),
        "JMP" | "EXIT" | "RET" => always,
        _ => false,
    }
}

fn ends_block(inst: &SassInst) -> bool {
    matches!(
        base(&inst.opcode),
        "BRA" | "BRX" | "JMX" | "JMP" | "EXIT" | "RET" | "BREAK" | "BSYNC"
    )
}

/// The loop depth of each instruction of `insts` (one function's code, in address order): how
/// many SASS loops contain it (0 outside every loop).
pub fn loop_depths(insts: &[SassInst]) -> Vec<u32> {
    let n = insts.len();
    if n == 0 {
        return Vec::new();
    }
    // leaders
    let mut leader = vec![false; n];
    leader[0] = true;
    let index_of = |off: u32| insts.binary_search_by_key(&off, |i| i.offset).ok();
    for (k, inst) in insts.iter().enumerate() {
        if let Some(t) = target(inst).and_then(index_of) {
            leader[t] = true;
        }
        if ends_block(inst) && k + 1 < n {
            leader[k + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&k| leader[k]).collect();
    let nb = starts.len();
    let block_of_inst = |k: usize| starts.partition_point(|&s| s <= k) - 1;
    // successors
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, s) in succs.iter_mut().enumerate() {
        let last = if b + 1 < nb { starts[b + 1] - 1 } else { n - 1 };
        let inst = &insts[last];
        if let Some(t) = target(inst).and_then(index_of) {
            s.push(block_of_inst(t));
        }
        if !ends_unconditionally(inst) && b + 1 < nb {
            s.push(b + 1);
        }
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nb];
    for (b, s) in succs.iter().enumerate() {
        for &t in s {
            preds[t].push(b);
        }
    }
    // natural loops, merged by header
    let mut body: Vec<Option<Vec<bool>>> = vec![None; nb];
    for (u, s) in succs.iter().enumerate() {
        for &h in s {
            if h > u {
                continue;
            }
            let inside = body[h].get_or_insert_with(|| {
                let mut v = vec![false; nb];
                v[h] = true;
                v
            });
            let mut stack = vec![u];
            while let Some(x) = stack.pop() {
                if inside[x] {
                    continue;
                }
                inside[x] = true;
                stack.extend(preds[x].iter().copied());
            }
        }
    }
    let mut depth = vec![0u32; nb];
    for inside in body.iter().flatten() {
        for (d, &i) in depth.iter_mut().zip(inside) {
            *d += u32::from(i);
        }
    }
    (0..n).map(|k| depth[block_of_inst(k)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::parse;

    fn depths(listing: &str) -> Vec<u32> {
        let l = parse(listing);
        l.functions
            .first()
            .map_or_else(Vec::new, |f| loop_depths(&f.instructions))
    }

    #[test]
    fn loops_nest_and_hoisted_code_is_outside() {
        // a hoisted computation before a loop nest: outer loop 0x30..0xa0, inner 0x50..0x70
        let text = "\t.text.k:\n\
            /*0000*/ S2R R0, SR_TID.X ;\n\
            /*0010*/ IMAD R1, R0, R0, RZ ;\n\
            /*0020*/ LOP3.LUT R1, R1, 0x55, RZ, 0x3c, !PT ;\n\
            /*0030*/ IADD3 R2, R2, 0x1, RZ ;\n\
            /*0040*/ MOV R3, RZ ;\n\
            /*0050*/ IADD3 R3, R3, R1, RZ ;\n\
            /*0060*/ ISETP.GE.AND P0, PT, R3, 0x10, PT ;\n\
            /*0070*/ @!P0 BRA 0x50 ;\n\
            /*0080*/ ISETP.GE.AND P1, PT, R2, 0x8, PT ;\n\
            /*0090*/ @!P1 BRA 0x30 ;\n\
            /*00a0*/ BRA 0xc0 ;\n\
            /*00b0*/ NOP ;\n\
            /*00c0*/ EXIT ;\n\
            /*00d0*/ BRA 0xd0 ;\n";
        assert_eq!(depths(text), vec![0, 0, 0, 1, 1, 2, 2, 2, 1, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn unconditional_branches_do_not_fall_through() {
        // the block after the unconditional BRA at 0x40 is reached by nothing: its backward
        // branch makes a loop of itself and the header, not of the block before it
        let text = "\t.text.k:\n\
            /*0000*/ ISETP.GE.AND P0, PT, R2, 0x8, PT ;\n\
            /*0010*/ @P0 BRA 0x40 ;\n\
            /*0020*/ IADD3 R2, R2, 0x1, RZ ;\n\
            /*0030*/ @P1 BRA 0x20 ;\n\
            /*0040*/ BRA 0x60 ;\n\
            /*0050*/ @P2 BRA 0x20 ;\n\
            /*0060*/ EXIT ;\n";
        assert_eq!(depths(text), vec![0, 0, 1, 1, 0, 1, 0]);
        assert!(depths("").is_empty());
    }
}
