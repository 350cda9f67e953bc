//! Test helpers for mechanics written against [`Roller`]: dice that come
//! up as a worked example says.

use super::Roller;
use std::collections::VecDeque;

/// Dice that come up as listed, in order; a face above the die's sides, or
/// running out, fails the test.
pub struct Faces(pub VecDeque<u32>);

impl Faces {
    /// The faces, first rolled first.
    pub fn of(faces: &[u32]) -> Self {
        Faces(faces.iter().copied().collect())
    }

    /// Whether every listed face was used.
    pub fn used_up(&self) -> bool {
        self.0.is_empty()
    }
}

impl Roller for Faces {
    fn roll(&mut self, sides: u32) -> u32 {
        let f = self.0.pop_front().expect("the test ran out of dice");
        assert!((1..=sides).contains(&f), "face {f} on a D{sides}");
        f
    }
}

/// Checks `exact` (one value per metric in `names`) against the expected
/// values over every dice path of `trial`, which writes one trial's
/// metric values: exact evaluators written in closed form are held to the
/// rule played on every roll.
pub fn assert_exact_is_every_roll(
    names: &[String],
    exact: &[f64],
    limit: usize,
    mut trial: impl FnMut(&mut super::Replay, &mut [u64]),
) {
    let paths = super::enumerate(limit, |r| {
        let mut values = vec![0u64; names.len()];
        trial(r, &mut values);
        values
    })
    .expect("a small enough case to enumerate");
    for (i, name) in names.iter().enumerate() {
        let want: f64 = paths.iter().map(|(v, p)| v[i] as f64 * p).sum();
        assert!(
            (exact[i] - want).abs() < 1e-12,
            "{name}: exact {} vs every roll {want}",
            exact[i]
        );
    }
}
