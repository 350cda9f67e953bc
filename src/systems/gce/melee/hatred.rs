//! What a Hating warrior re-rolls (seed: "Special rules: Psychology",
//! Hatred: "may choose to reroll their Attack Dice (individual dice or all
//! of them). The second result stands."), decided on both sides' first
//! rolls; `Best` takes the re-roll that most often wins the round.

use super::fighter::HatredPolicy;
use super::round::{Laws, margin_of};
use crate::dice::Extremes;

/// What a Hating warrior re-rolls of its pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reroll {
    /// Ones re-rolled.
    pub ones: u8,
    /// Dice between 1 and 6 re-rolled, not counting the highest one.
    pub middles: u8,
    /// The highest die too (only with every other die below 6).
    pub highest: bool,
    /// Every die, sixes included.
    pub all: bool,
}

impl Reroll {
    /// How many dice go back in the cup.
    pub(super) fn count(self, e: Extremes) -> u8 {
        if self.all {
            e.dice
        } else {
            self.ones + self.middles + u8::from(self.highest)
        }
    }

    /// The dice kept.
    pub(super) fn kept(self, e: Extremes) -> Extremes {
        if self.all {
            return Extremes::default();
        }
        let n = e.dice - self.count(e);
        let ones = e.ones - self.ones;
        // a six, or the highest die between, stays
        let highest = if e.tops > 0 || (e.middles() > 0 && !self.highest) {
            e.highest
        } else if ones > 0 {
            1
        } else {
            0
        };
        Extremes {
            dice: n,
            highest,
            tops: e.tops,
            ones,
        }
    }

    /// Every re-roll worth considering for `e`: ones are all or none (a
    /// re-rolled 1 can only do better), sixes never (except `all`), any
    /// number of the dice between, keeping the highest unless all of them
    /// go. Reading: re-rolling the highest die while keeping lower ones
    /// would need the second-highest face, which the summary drops; `best`
    /// chooses among the others.
    fn candidates(e: Extremes) -> Vec<Reroll> {
        let mut out = Vec::new();
        let m = e.middles();
        let spare = if e.tops > 0 { m } else { m.saturating_sub(1) };
        for ones in [0, e.ones] {
            for middles in 0..=spare {
                out.push(Reroll {
                    ones,
                    middles,
                    ..Reroll::default()
                });
            }
            if e.tops == 0 && m > 0 {
                out.push(Reroll {
                    ones,
                    middles: spare,
                    highest: true,
                    all: false,
                });
            }
            if e.ones == 0 {
                break;
            }
        }
        out
    }
}

/// P(the margin `gap + margin_of(kept + fresh)` wins), `wins_draws` for 0.
fn p_win_after(laws: &Laws, r: Reroll, e: Extremes, gap: i32, wins_draws: bool) -> f64 {
    let kept = r.kept(e);
    laws.of(r.count(e))
        .iter()
        .filter(|(fresh, _)| {
            let m = gap + margin_of(kept.merge(*fresh));
            m > 0 || (m == 0 && wins_draws)
        })
        .map(|(_, p)| p)
        .sum()
}

/// The re-roll a policy makes for pool `e`, `gap` being the side's score
/// less the opponent's, not counting `margin_of(e)`.
pub(super) fn choose_reroll(
    laws: &Laws,
    policy: HatredPolicy,
    e: Extremes,
    gap: i32,
    wins_draws: bool,
) -> Reroll {
    match policy {
        HatredPolicy::None => Reroll::default(),
        HatredPolicy::Ones => Reroll {
            ones: e.ones,
            ..Reroll::default()
        },
        HatredPolicy::AllWhenBehind => {
            let m = gap + margin_of(e);
            if m < 0 || (m == 0 && !wins_draws) {
                Reroll {
                    all: true,
                    ..Reroll::default()
                }
            } else {
                Reroll::default()
            }
        }
        HatredPolicy::Best => {
            let mut best = (f64::NEG_INFINITY, Reroll::default());
            for r in Reroll::candidates(e) {
                let p = p_win_after(laws, r, e, gap, wins_draws);
                // strictly better by more than rounding: fewer re-rolls win ties
                if p > best.0 + 1e-12 {
                    best = (p, r);
                }
            }
            best.1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Roller, enumerate};

    #[test]
    fn best_hatred_is_the_best_of_every_subset_of_dice() {
        // every face tuple of a 3-die pool, every gap: the best re-roll on the
        // summary equals the best over all 8 subsets of real dice
        let laws = Laws::up_to(3);
        let tuples = enumerate(1000, |r| [r.d6(), r.d6(), r.d6()]).unwrap();
        let summary = |faces: &[u32]| {
            let mut e = Extremes {
                dice: faces.len() as u8,
                ..Extremes::default()
            };
            for &f in faces {
                e.highest = e.highest.max(f as u8);
                e.tops += u8::from(f == 6);
                e.ones += u8::from(f == 1);
            }
            e
        };
        for (faces, _) in &tuples {
            let e = summary(faces);
            for gap in -9..=3 {
                for wins_draws in [false, true] {
                    let mut brute: f64 = 0.0;
                    for mask in 0u32..8 {
                        let kept: Vec<u32> = (0..3)
                            .filter(|i| mask & (1 << i) == 0)
                            .map(|i| faces[i])
                            .collect();
                        let n = mask.count_ones() as usize;
                        let p: f64 = enumerate(1000, |r| {
                            let mut all = kept.clone();
                            all.extend((0..n).map(|_| r.d6()));
                            let m = gap + margin_of(summary(&all));
                            m > 0 || (m == 0 && wins_draws)
                        })
                        .unwrap()
                        .iter()
                        .filter(|(w, _)| *w)
                        .map(|(_, p)| p)
                        .sum();
                        brute = brute.max(p);
                    }
                    let r = choose_reroll(&laws, HatredPolicy::Best, e, gap, wins_draws);
                    let ours = p_win_after(&laws, r, e, gap, wins_draws);
                    assert!(
                        (ours - brute).abs() < 1e-12,
                        "{faces:?} gap {gap}: {ours} vs {brute}"
                    );
                }
            }
        }
    }
}
