//! CSV records and Nsight Compute's numbers.

/// Splits CSV text into records of fields (RFC 4180 quoting: `""` inside quotes is a quote,
/// and a quoted field may span lines). Blank lines are skipped; `\r` is dropped.
pub fn records(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                any = true;
            }
            ',' => {
                row.push(std::mem::take(&mut field));
                any = true;
            }
            '\r' => {}
            '\n' => {
                if any || !field.is_empty() {
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                any = false;
            }
            _ => {
                field.push(c);
                any = true;
            }
        }
    }
    if any || !field.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A cell's number, or `None` for `-`, `n/a`, an empty cell or text. Thousands separators,
/// white space and `%` signs are dropped.
pub fn number(s: &str) -> Option<f64> {
    let t: String = s
        .chars()
        .filter(|c| *c != ',' && *c != '%' && !c.is_whitespace())
        .collect();
    t.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_and_quotes() {
        let rows = records("a,\"b,c\",\"d\"\"e\"\n\n1,2\r\n\"multi\nline\",3");
        assert_eq!(
            rows,
            vec![
                vec!["a".to_string(), "b,c".into(), "d\"e".into()],
                vec!["1".to_string(), "2".into()],
                vec!["multi\nline".to_string(), "3".into()],
            ]
        );
    }

    #[test]
    fn numbers_with_thousands_separators() {
        assert_eq!(number("1,024"), Some(1024.0));
        assert_eq!(number(" 3.5 "), Some(3.5));
        assert_eq!(number("12.5 %"), Some(12.5));
        assert_eq!(number("-"), None);
        assert_eq!(number("n/a"), None);
        assert_eq!(number(""), None);
    }
}
