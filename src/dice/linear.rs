//! The kernel's one linear solver: Gauss-Jordan elimination with partial
//! pivoting, for the small dense systems of absorbing chains and of
//! zero-sum games' brute-force checks.

/// Solves `A X = B` given as rows `[A | B]` (A square, `n` rows, any
/// number of right-hand columns): the rows of `X`, or `None` when a pivot
/// is below `singular` in magnitude (A singular, or as good as).
///
/// Each pivot row is divided by its pivot before it is subtracted from the
/// others, and rows with nothing in the pivot's column are left alone: the
/// order of operations every caller's numbers come from.
pub fn solve_linear(mut m: Vec<Vec<f64>>, singular: f64) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))
            .unwrap_or(col);
        if m[pivot][col].abs() < singular {
            return None;
        }
        m.swap(col, pivot);
        let d = m[col][col];
        m[col].iter_mut().for_each(|x| *x /= d);
        let pivot_row = m[col].clone();
        for (row, values) in m.iter_mut().enumerate() {
            let f = values[col];
            if row != col && f != 0.0 {
                for (x, p) in values.iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(m.into_iter().map(|row| row[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x + y = 3, x - y = 1 by hand: x = 2, y = 1; two right-hand sides
    /// at once (the second, 1 and 1: x = 1, y = 0).
    #[test]
    fn solves_a_system_by_hand() {
        let x = solve_linear(
            vec![vec![1.0, 1.0, 3.0, 1.0], vec![1.0, -1.0, 1.0, 1.0]],
            1e-12,
        )
        .expect("regular");
        assert_eq!(x, vec![vec![2.0, 1.0], vec![1.0, 0.0]]);
    }

    /// A zero in the first pivot's place: the row below is swapped up.
    #[test]
    fn pivots_past_a_zero() {
        let x = solve_linear(vec![vec![0.0, 2.0, 4.0], vec![3.0, 0.0, 6.0]], 1e-12).unwrap();
        assert_eq!(x, vec![vec![2.0], vec![2.0]]);
    }

    #[test]
    fn a_singular_system_has_no_solution() {
        assert_eq!(
            solve_linear(vec![vec![1.0, 2.0, 1.0], vec![2.0, 4.0, 2.0]], 1e-12),
            None
        );
    }
}
