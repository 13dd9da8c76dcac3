//! Text, CSV and sweep-table renderings of a [`CacheReport`].

use serde::Serialize;
use std::fmt::Write;

use crate::config::format_size;
use crate::grab::Fault;
use crate::model::{CacheReport, ConfigReport, KernelReport, Totals};

/// The columns issue 11 fixes for `--format csv`, first and in this order (tools read them).
pub const CSV_REQUIRED: &str = "l1_bytes,scheduler,kernel,file,line,l1_sectors,l1_hits,\
l1_misses,fault_mh,fault_mstar_h,fault_mm,interference_caused";

/// Columns of `--format csv` (one row per configuration, kernel, file and line): the
/// required ones, then the rest of the configuration and counts.
pub const CSV_COLUMNS: &str = "l1_bytes,scheduler,kernel,file,line,l1_sectors,l1_hits,\
l1_misses,fault_mh,fault_mstar_h,fault_mm,interference_caused,l1_assoc,line_bytes,ptx_line,\
compulsory,l2_sectors,l2_hits";

/// Columns of the sweep table as CSV (one row per configuration and kernel).
pub const TABLE_COLUMNS: &str = "l1_bytes,l1_assoc,line_bytes,scheduler,kernel,l1_sectors,\
l1_hits,l1_misses,fault_mh,fault_mstar_h,fault_mm,compulsory,l1_hit_rate,load_hit_rate,\
l2_hit_rate";

fn pct(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{:.1}%", 100.0 * r))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The L1 size a configuration used for a kernel (the resolved size when automatic).
fn l1_bytes(k: &KernelReport) -> String {
    let v: Vec<String> = k.l1.iter().map(|g| g.bytes.to_string()).collect();
    v.join("|")
}

fn l1_ways(k: &KernelReport) -> String {
    let v: Vec<String> = k.l1.iter().map(|g| g.ways.to_string()).collect();
    v.join("|")
}

/// `--format csv`.
pub fn csv(r: &CacheReport) -> String {
    let mut s = String::from(CSV_COLUMNS);
    s.push('\n');
    for c in &r.configs {
        for k in &c.kernels {
            for l in &k.lines {
                let t = &l.totals;
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    l1_bytes(k),
                    c.scheduler,
                    csv_field(&k.name),
                    csv_field(l.file.as_deref().unwrap_or("")),
                    l.line,
                    t.l1_sectors,
                    t.l1_hits,
                    t.l1_misses,
                    t.fault_mh,
                    t.fault_mstar_h,
                    t.fault_mm,
                    t.interference_caused,
                    l1_ways(k),
                    c.line_bytes,
                    l.ptx_line,
                    t.compulsory,
                    t.l2_sectors,
                    t.l2_hits
                );
            }
        }
    }
    s
}

/// One row of the sweep table.
#[derive(Clone, Debug, Serialize)]
pub struct TableRow {
    pub config: String,
    pub scheduler: String,
    pub l1_bytes: String,
    pub l1_assoc: String,
    pub line_bytes: u32,
    pub kernel: String,
    pub totals: Totals,
}

/// The sweep table (GRAB's Table 5 shape): per configuration and kernel, L1 hits and misses
/// by fault type.
pub fn table_rows(r: &CacheReport) -> Vec<TableRow> {
    let mut rows = Vec::new();
    for c in &r.configs {
        for k in &c.kernels {
            rows.push(TableRow {
                config: c.label(),
                scheduler: c.scheduler.clone(),
                l1_bytes: l1_bytes(k),
                l1_assoc: l1_ways(k),
                line_bytes: c.line_bytes,
                kernel: k.name.clone(),
                totals: k.totals,
            });
        }
    }
    rows
}

/// The sweep table as CSV.
pub fn table_csv(r: &CacheReport) -> String {
    let mut s = String::from(TABLE_COLUMNS);
    s.push('\n');
    let f = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.4}"));
    for row in table_rows(r) {
        let t = &row.totals;
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            row.l1_bytes,
            row.l1_assoc,
            row.line_bytes,
            row.scheduler,
            csv_field(&row.kernel),
            t.l1_sectors,
            t.l1_hits,
            t.l1_misses,
            t.fault_mh,
            t.fault_mstar_h,
            t.fault_mm,
            t.compulsory,
            f(t.l1_hit_rate),
            f(t.load_hit_rate),
            f(t.l2_hit_rate)
        );
    }
    s
}

/// The sweep table as JSON.
pub fn table_json(r: &CacheReport) -> String {
    serde_json::to_string_pretty(&table_rows(r)).unwrap_or_default() + "\n"
}

/// The sweep table as text: one block per kernel, one row per configuration.
pub fn table_text(r: &CacheReport) -> String {
    let rows = table_rows(r);
    let mut s = String::from(
        "L1 sector lookups by outcome per kernel and configuration (GRAB Table 5 shape; \
         mh/m*h/mm are load misses)\n",
    );
    let mut kernels: Vec<&str> = Vec::new();
    for row in &rows {
        if !kernels.contains(&row.kernel.as_str()) {
            kernels.push(&row.kernel);
        }
    }
    let w = rows
        .iter()
        .map(|r| r.config.len())
        .max()
        .unwrap_or(6)
        .max(6);
    for k in kernels {
        let _ = writeln!(s, "\n{k}");
        let _ = writeln!(
            s,
            "  {:<w$} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
            "config", "lookups", "hits", "mh", "m*h", "mm", "(cold)", "L1 hit", "L2 hit"
        );
        for row in rows.iter().filter(|r| r.kernel == k) {
            let t = &row.totals;
            let label = if row.l1_bytes.contains('|') || row.config.contains("auto") {
                format!("{} (L1 {})", row.config, sizes(&row.l1_bytes))
            } else {
                row.config.clone()
            };
            let _ = writeln!(
                s,
                "  {:<w$} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
                label,
                t.l1_sectors,
                t.l1_hits,
                t.fault_mh,
                t.fault_mstar_h,
                t.fault_mm,
                t.compulsory,
                pct(t.l1_hit_rate),
                pct(t.l2_hit_rate)
            );
        }
    }
    s
}

fn sizes(list: &str) -> String {
    list.split('|')
        .filter_map(|b| b.parse::<u64>().ok())
        .map(format_size)
        .collect::<Vec<_>>()
        .join("|")
}

/// The detailed bug report of one configuration (GRAB Figure 8, per kernel and fault type).
pub fn config_text(c: &ConfigReport, top: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "configuration: scheduler {}, L1 {} ({}-way), {} B lines, L2 {} {}-way, memory latency {} \
         cycles, miss* when the {} is full",
        c.scheduler,
        c.l1,
        c.l1_assoc,
        c.line_bytes,
        format_size(c.l2_bytes),
        c.l2_assoc,
        c.memory_latency,
        match c.capacity_test {
            crate::config::CapacityTest::Cache => "cache",
            crate::config::CapacityTest::Set => "set",
        }
    );
    for k in &c.kernels {
        let t = &k.totals;
        let geos: Vec<String> = k.l1.iter().map(|g| g.to_string()).collect();
        let _ = writeln!(
            s,
            "\nkernel {} ({} launch{}; L1 {})",
            k.name,
            k.launches,
            if k.launches == 1 { "" } else { "es" },
            geos.join(" / ")
        );
        let _ = writeln!(
            s,
            "  L1: {} sector lookups, {} hit ({} load lookups, {} hit); L2: {} lookups, {} hit",
            t.l1_sectors,
            pct(t.l1_hit_rate),
            t.load_sectors,
            pct(t.load_hit_rate),
            t.l2_sectors,
            pct(t.l2_hit_rate)
        );
        let _ = writeln!(
            s,
            "  load misses: mh {}, m*h {}, mm {} ({} compulsory)",
            t.fault_mh, t.fault_mstar_h, t.fault_mm, t.compulsory
        );
        for fr in &k.faults {
            if fr.count == 0 {
                continue;
            }
            let _ = writeln!(
                s,
                "\n  {} — {} misses, {} root cause{}, {} affected line{}{}",
                match fr.fault {
                    Fault::Mh => "mh (interference, L1 not full)",
                    Fault::MStarH => "m*h (interference, L1 full)",
                    Fault::Mm => "mm (no interference)",
                },
                fr.count,
                fr.root_causes.len(),
                if fr.root_causes.len() == 1 { "" } else { "s" },
                fr.affected_lines,
                if fr.affected_lines == 1 { "" } else { "s" },
                if fr.compulsory > 0 {
                    format!(
                        ", {} compulsory (first touch, no root cause)",
                        fr.compulsory
                    )
                } else {
                    String::new()
                }
            );
            for r in fr.root_causes.iter().take(top) {
                let _ = writeln!(
                    s,
                    "    #{} priority {}: {}  {}",
                    r.rank,
                    r.priority,
                    r.at.short(),
                    r.at.instruction
                );
                let _ = writeln!(
                    s,
                    "       blocks: {}{}",
                    r.blocks.join(", "),
                    more(r.distinct_blocks, &r.blocks, " (+{} more)")
                );
                for e in r.effects.iter().take(top) {
                    let _ = writeln!(
                        s,
                        "       effect: {} misses at {}  {} (blocks {}{}){}{}",
                        e.misses,
                        e.at.short(),
                        e.at.instruction,
                        e.blocks.join(", "),
                        more(e.distinct_blocks, &e.blocks, " +{}"),
                        if e.rereads > 0 {
                            format!("; {} re-reads of the warp's own lines", e.rereads)
                        } else {
                            String::new()
                        },
                        if e.same_value > 0 {
                            format!(
                                "; {} re-reads of a value the thread had in hand",
                                e.same_value
                            )
                        } else {
                            String::new()
                        }
                    );
                }
                let _ = writeln!(s, "       fix ({}): {}", r.fix.short(), r.advice);
                let _ = writeln!(
                    s,
                    "       estimated gain: {} fewer L1 misses ({} of L2 traffic)",
                    r.estimated_gain_misses,
                    bytes(r.estimated_gain_misses * 32)
                );
            }
            if fr.root_causes.len() > top {
                let _ = writeln!(
                    s,
                    "    … {} more root causes (--top N shows more)",
                    fr.root_causes.len() - top
                );
            }
        }
    }
    s
}

/// `pattern` with `{}` replaced by the blocks not listed, or nothing when all are.
fn more(distinct: u64, shown: &[String], pattern: &str) -> String {
    let rest = distinct.saturating_sub(shown.len() as u64);
    if rest > 0 {
        pattern.replace("{}", &rest.to_string())
    } else {
        String::new()
    }
}

fn bytes(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MiB", b as f64 / f64::from(1 << 20))
    } else if b >= 1 << 10 {
        format!("{:.1} KiB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}

/// The whole text report: the first configuration in detail, then the sweep table when
/// there are several configurations.
pub fn text(r: &CacheReport, top: usize) -> String {
    let mut s = format!("warpscope cache: {} ({})\n", r.spec, r.module);
    if let Some(c) = r.configs.first() {
        s.push_str(&config_text(c, top));
    }
    if r.configs.len() > 1 {
        s.push('\n');
        s.push_str(&table_text(r));
    }
    s
}
