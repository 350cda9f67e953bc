//! One round of Hand-to-Hand Combat between two sides (seed: Steps 3-9):
//! the Attack Dice, the combat score with Critical Blows and Opponent
//! Fumbles, the winner (draws by Initiative and weapon), the strikes on
//! the loser through the hit pipeline, and the cached laws that let the
//! exact evaluator draw a whole round at once.

use super::fighter::Fighter;
use crate::dice::{Extremes, LawCache, Replay, Roller, StateDist, extremes_law};
use crate::systems::gce::warrior::{Condition, Status};

/// Faces of an Attack Dice.
const D6: u32 = 6;

/// Who won a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Not decided yet (or no round was fought).
    #[default]
    Pending,
    /// The first side won.
    A,
    /// The second side won.
    B,
    /// Same score and same Initiative.
    Stalemate,
}

/// The score a side brings to a round, before its own dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Side {
    pub(super) ws: u8,
    pub(super) modifier: i32,
}

/// Combat score: "Weapon Skill (WS) + Highest Attack Dice Roll +/-
/// Modifiers", with Critical Blows ("Each roll of a 6 on an Attack Dice,
/// excluding the first, gives a +1 bonus") and Opponent Fumbles ("Each 1
/// your opponent rolls ... gives your Warrior a +1 Modifier").
pub(super) fn combat_score(side: Side, own: Extremes, theirs: Extremes) -> i32 {
    i32::from(side.ws)
        + i32::from(own.highest)
        + i32::from(own.tops.saturating_sub(1))
        + i32::from(theirs.ones)
        + side.modifier
}

/// The draw rule between two warriors: who wins a drawn round.
pub(in crate::systems::gce) fn draw_winner(a: &Fighter, b: &Fighter) -> Outcome {
    match (a.draw_initiative(), b.draw_initiative()) {
        (None, None) => by_initiative(a.initiative, b.initiative),
        (None, Some(_)) => Outcome::B,
        (Some(_), None) => Outcome::A,
        (Some(x), Some(y)) => by_initiative(x, y),
    }
}

fn by_initiative(x: u8, y: u8) -> Outcome {
    match x.cmp(&y) {
        std::cmp::Ordering::Greater => Outcome::A,
        std::cmp::Ordering::Less => Outcome::B,
        std::cmp::Ordering::Equal => Outcome::Stalemate,
    }
}

/// Step 4 and 5: the winner and its strikes ("If it was a resolved draw
/// (and not a stalemate) then it’s only a single Hit").
pub(super) fn decide(a_score: i32, b_score: i32, on_draw: Outcome) -> (Outcome, u8) {
    match a_score.cmp(&b_score) {
        std::cmp::Ordering::Greater => (Outcome::A, (a_score - b_score) as u8),
        std::cmp::Ordering::Less => (Outcome::B, (b_score - a_score) as u8),
        std::cmp::Ordering::Equal => match on_draw {
            Outcome::Stalemate => (Outcome::Stalemate, 0),
            w => (w, 1),
        },
    }
}

/// Strike number `k` (from 0) of `winner` on `loser`: "If two weapons were
/// used, you must split and alternate the Hits. Crucially, with an odd
/// number of strikes the winner picks how they alternate." Reading: the
/// weapon listed first strikes first, so it takes the odd strike.
/// `down_is_out`: "if a Warrior goes Down they go Out of Action
/// immediately" (one-on-one on foot).
fn strike(
    dice: &mut impl Roller,
    k: u8,
    winner: &Fighter,
    loser: &Fighter,
    loser_now: &mut Condition,
    down_is_out: bool,
) {
    let weapons = &winner.armed.in_hand;
    let w = &weapons[usize::from(k) % weapons.len()];
    loser_now.take_hit(dice, &loser.stats, &w.hit(winner.strength));
    if down_is_out && loser_now.status == Status::Down {
        loser_now.status = Status::OutOfAction;
    }
}

/// A round's strikes on the loser, all at once: the sampler strikes with
/// real dice; the exact evaluator draws the loser's condition from the law
/// of `strikes` strikes on it, computed once per (winner, strikes,
/// condition) by running [`strike`] under [`StateDist`].
pub(in crate::systems::gce) struct StrikeLaws {
    rounds: LawCache<(bool, u8, Condition), Condition>,
    /// One strike's law by (side, weapon, condition).
    single: std::sync::Mutex<std::collections::BTreeMap<StrikeKey, Vec<(Condition, f64)>>>,
}

/// Which side strikes, with which weapon, on a warrior in which condition.
type StrikeKey = (bool, u8, Condition);

impl StrikeLaws {
    pub(in crate::systems::gce) fn new() -> Self {
        StrikeLaws {
            rounds: LawCache::new(),
            single: Default::default(),
        }
    }

    /// The loser's condition after `strikes` strikes by `winner` (`first`
    /// says which side won, for the cache).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::systems::gce) fn land(
        &self,
        dice: &mut impl Roller,
        first: bool,
        strikes: u8,
        winner: &Fighter,
        loser: &Fighter,
        now: Condition,
        down_is_out: bool,
    ) -> Condition {
        if strikes == 0 || now.status == Status::OutOfAction {
            return now;
        }
        let weapons = winner.armed.in_hand.len();
        self.rounds.draw(
            dice,
            (first, strikes, now),
            || {
                // strike by strike, each strike's law computed once per
                // (weapon, condition) by enumerating the hit pipeline
                let mut single = self.single.lock().unwrap_or_else(|p| p.into_inner());
                let mut law = std::collections::BTreeMap::from([(now, 1.0)]);
                for k in 0..strikes {
                    let w = (usize::from(k) % weapons) as u8;
                    let mut next = std::collections::BTreeMap::new();
                    for (c, p) in law {
                        let one = single.entry((first, w, c)).or_insert_with(|| {
                            StateDist::certain(c)
                                .step(STRIKE_PATHS, |r: &mut Replay, c| {
                                    strike(r, w, winner, loser, c, down_is_out)
                                })
                                .expect("hand-to-hand Damage is limited to what enumerates")
                                .iter()
                                .map(|(c, p)| (*c, p))
                                .collect()
                        });
                        for (c2, q) in one.iter() {
                            *next.entry(*c2).or_insert(0.0) += p * q;
                        }
                    }
                    law = next;
                }
                law.into_iter().collect()
            },
            |d| {
                let mut c = now;
                for k in 0..strikes {
                    strike(d, k, winner, loser, &mut c, down_is_out);
                }
                c
            },
        )
    }
}

/// Both pools rolled and compared at once: the sampler rolls both pools;
/// the exact evaluator draws (winner, strikes) from their law, computed
/// once per (edge, dice, dice) from the pools' closed-form laws. `edge` is
/// the first side's Weapon Skill and modifiers less the second's.
pub(in crate::systems::gce) struct ClashLaws {
    pub(super) laws: Laws,
    clashes: LawCache<(i32, u8, u8), (Outcome, u8)>,
}

impl ClashLaws {
    pub(in crate::systems::gce) fn up_to(dice: u8) -> Self {
        ClashLaws {
            laws: Laws::up_to(dice),
            clashes: LawCache::new(),
        }
    }

    pub(in crate::systems::gce) fn clash(
        &self,
        dice: &mut impl Roller,
        edge: i32,
        na: u8,
        nb: u8,
        on_draw: Outcome,
    ) -> (Outcome, u8) {
        let settle =
            |a: Extremes, b: Extremes| decide(edge + margin_of(a) - margin_of(b), 0, on_draw);
        self.clashes.draw(
            dice,
            (edge, na, nb),
            || {
                let mut law = std::collections::BTreeMap::new();
                for (a, p) in self.laws.of(na) {
                    for (b, q) in self.laws.of(nb) {
                        *law.entry(settle(*a, *b)).or_insert(0.0) += p * q;
                    }
                }
                law.into_iter().collect()
            },
            |d| {
                let a = Extremes::roll(d, na, D6);
                let b = Extremes::roll(d, nb, D6);
                settle(a, b)
            },
        )
    }
}

/// Dice paths one strike may take under the exact evaluator: wound, save,
/// Damage dice, Injury.
const STRIKE_PATHS: usize = 1 << 16;

/// Most Damage dice a hand-to-hand weapon may roll (a strike's dice then
/// enumerate within [`STRIKE_PATHS`]).
pub const MAX_DAMAGE_DICE: u32 = 3;

/// Exact laws of the extremes of `0..=max` Attack Dice.
#[derive(Clone, Debug)]
pub(super) struct Laws(Vec<Vec<(Extremes, f64)>>);

impl Laws {
    pub(super) fn up_to(max: u8) -> Self {
        Laws((0..=max).map(|n| extremes_law(n, D6)).collect())
    }

    pub(super) fn of(&self, n: u8) -> &[(Extremes, f64)] {
        &self.0[usize::from(n)]
    }

    pub(super) fn draw(&self, dice: &mut impl Roller, n: u8) -> Extremes {
        Extremes::draw(dice, self.of(n), n, D6)
    }
}

/// A side's margin from its own dice: its highest, its criticals, less its
/// fumbles (each gives the opponent +1).
pub(super) fn margin_of(e: Extremes) -> i32 {
    i32::from(e.highest) + i32::from(e.tops.saturating_sub(1)) - i32::from(e.ones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::gce::melee::fighter::warrior;
    use crate::systems::gce::melee::weapons::{Armed, MeleeWeapon};

    #[test]
    fn draws_go_to_initiative_spears_and_away_from_uge_choppas() {
        let mut a = warrior(3, 1, &[]);
        let mut b = warrior(3, 1, &[]);
        a.initiative = 3;
        b.initiative = 3;
        assert_eq!(draw_winner(&a, &b), Outcome::Stalemate);
        b.armed = Armed::from_carried(&[MeleeWeapon::named("spear").unwrap()], 2).unwrap();
        assert_eq!(draw_winner(&a, &b), Outcome::B);
        a.initiative = 5;
        a.armed = Armed::from_carried(&[MeleeWeapon::named("uge_choppa").unwrap()], 2).unwrap();
        assert_eq!(
            draw_winner(&a, &b),
            Outcome::B,
            "'Uge Choppa always loses draws"
        );
        assert_eq!(decide(7, 7, Outcome::B), (Outcome::B, 1));
        assert_eq!(decide(9, 7, Outcome::B), (Outcome::A, 2));
    }
}
