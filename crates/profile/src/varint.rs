//! Unsigned LEB128 varints and zigzag deltas, the building blocks of the binary exports.

use std::io::{self, Read};

/// Appends `v` as an unsigned LEB128 varint.
#[inline]
pub fn put(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a length-prefixed UTF-8 string.
pub fn put_str(out: &mut Vec<u8>, s: &str) {
    put(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Zigzag encoding of a signed difference.
#[inline]
pub fn zigzag(d: i64) -> u64 {
    ((d << 1) ^ (d >> 63)) as u64
}

/// Inverse of [`zigzag`].
#[inline]
pub fn unzigzag(z: u64) -> i64 {
    ((z >> 1) as i64) ^ -((z & 1) as i64)
}

/// Reads varints from a byte slice.
pub struct Cursor<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
}

fn eof() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "truncated record")
}

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, pos: 0 }
    }

    #[cfg(test)]
    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    pub fn u8(&mut self) -> io::Result<u8> {
        let b = *self.bytes.get(self.pos).ok_or_else(eof)?;
        self.pos += 1;
        Ok(b)
    }

    pub fn u32_le(&mut self) -> io::Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn take(&mut self, n: usize) -> io::Result<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or_else(eof)?;
        let s = self.bytes.get(self.pos..end).ok_or_else(eof)?;
        self.pos = end;
        Ok(s)
    }

    pub fn var(&mut self) -> io::Result<u64> {
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.u8()?;
            if shift >= 64 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "varint too long",
                ));
            }
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }

    pub fn var32(&mut self) -> io::Result<u32> {
        u32::try_from(self.var()?)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "value exceeds 32 bits"))
    }

    pub fn string(&mut self) -> io::Result<String> {
        let n = self.var()? as usize;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "string is not UTF-8"))
    }
}

/// Reads one varint from a stream (`Ok(None)` at a clean end of stream).
pub fn read_var<R: Read>(r: &mut R) -> io::Result<Option<u64>> {
    let mut v = 0u64;
    let mut shift = 0u32;
    let mut first = true;
    loop {
        let mut b = [0u8; 1];
        match r.read(&mut b)? {
            0 if first => return Ok(None),
            0 => return Err(eof()),
            _ => {}
        }
        first = false;
        if shift >= 64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "varint too long",
            ));
        }
        v |= u64::from(b[0] & 0x7f) << shift;
        if b[0] & 0x80 == 0 {
            return Ok(Some(v));
        }
        shift += 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let vals = [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX];
        let mut out = Vec::new();
        for &v in &vals {
            put(&mut out, v);
        }
        let mut c = Cursor::new(&out);
        for &v in &vals {
            assert_eq!(c.var().unwrap(), v);
        }
        assert!(c.at_end());
        for d in [0i64, 1, -1, 4, -4096, i64::MAX, i64::MIN] {
            assert_eq!(unzigzag(zigzag(d)), d);
        }
        assert_eq!(zigzag(4), 8);
    }
}
