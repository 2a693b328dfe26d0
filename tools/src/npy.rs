//! Writes arrays as NumPy `.npy` files (format 1.0, little-endian, C order), so that an
//! outside trainer (`scripts/train_gpu.py`, PyTorch) can load the positions that
//! `train-nnue` loaded with `numpy.load`, without parsing shogi itself.

use std::io::Write;

/// An element type NumPy knows, with its `descr` code.
pub trait Element: Copy {
    const DESCR: &'static str;
    fn put(self, out: &mut Vec<u8>);
}

impl Element for u8 {
    const DESCR: &'static str = "|u1";
    fn put(self, out: &mut Vec<u8>) {
        out.push(self);
    }
}

impl Element for u16 {
    const DESCR: &'static str = "<u2";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl Element for f32 {
    const DESCR: &'static str = "<f4";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

/// The `.npy` header of an array of `T` with `shape`: magic, version, length, then the
/// header dictionary padded with spaces so that the data starts on a 64-byte boundary.
fn header<T: Element>(shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let dims = if shape.len() == 1 { format!("{},", dims[0]) } else { dims.join(", ") };
    let mut dict = format!("{{'descr': '{}', 'fortran_order': False, 'shape': ({dims}), }}", T::DESCR);
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h
}

/// Writes `data` (row-major, `shape.iter().product()` elements) to `path`.
pub fn write<T: Element>(path: &std::path::Path, shape: &[usize], data: &[T]) -> Result<(), String> {
    let n: usize = shape.iter().product();
    if n != data.len() {
        return Err(format!("{}: {} elements for shape {shape:?}", path.display(), data.len()));
    }
    let mut bytes = header::<T>(shape);
    bytes.reserve(n * std::mem::size_of::<T>());
    data.iter().for_each(|&x| x.put(&mut bytes));
    let mut f = std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    f.write_all(&bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_aligned_and_describe_the_array() {
        let h = header::<u16>(&[3, 80]);
        assert_eq!(h.len() % 64, 0);
        let text = String::from_utf8_lossy(&h[10..]);
        assert!(text.contains("'descr': '<u2'") && text.contains("'shape': (3, 80)") && text.ends_with('\n'), "{text}");
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
        assert!(String::from_utf8_lossy(&header::<f32>(&[5])).contains("'shape': (5,)"));
    }

    #[test]
    fn data_follows_the_header_and_bad_shapes_are_refused() {
        let p = std::env::temp_dir().join(format!("hisha-npy-{}.npy", std::process::id()));
        write(&p, &[2, 2], &[1u16, 2, 3, 0xabcd]).unwrap();
        let b = std::fs::read(&p).unwrap();
        assert_eq!(&b[b.len() - 8..], &[1, 0, 2, 0, 3, 0, 0xcd, 0xab]);
        assert!(write(&p, &[3], &[1u8, 2]).unwrap_err().contains("2 elements"));
        std::fs::remove_file(&p).ok();
    }
}
