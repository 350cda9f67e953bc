//! One-on-one Hand-to-Hand Combat between two warriors on foot: the fight's
//! state and the rules of its turns (seed: "Hand-to-Hand Combat", Steps
//! 0-11; the charge's Fear and Terror tests, Stupidity and Hatred from
//! "Special rules: Psychology"). The scenario built on it, its parameters,
//! metrics and model, is [`super::hand_to_hand`].

use super::fighter::{Causes, Fighter, Nerve};
use super::hatred::choose_reroll;
use super::round::{ClashLaws, Laws, Outcome, Side, combat_score, decide, draw_winner, margin_of};
use crate::dice::{Extremes, Roller};
use crate::systems::gce::tables::leadership_test;
use crate::systems::gce::warrior::Condition;

/// One-on-one combat between two warriors on foot, round after round until
/// one is Out of Action.
#[derive(Clone, Debug)]
pub struct Duel {
    /// The first warrior.
    pub a: Fighter,
    /// The second warrior.
    pub b: Fighter,
    /// Who charged, if anyone (+1 in the first round; Fear tests).
    pub charger: Option<Outcome>,
    /// The charger crossed an obstacle (-1 in the first round).
    pub obstacle: bool,
}

/// The state of a duel.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fight {
    pub(super) a: Condition,
    pub(super) b: Condition,
    /// The first round has been fought.
    pub(super) later: bool,
    pub(super) a_nerve: Nerve,
    pub(super) b_nerve: Nerve,
    /// The charger failed its Fear test: no combat.
    pub(super) charge_failed: bool,
    // within a round
    pub(super) a_dazed: bool,
    pub(super) b_dazed: bool,
    pub(super) a_roll: Extremes,
    pub(super) b_roll: Extremes,
    pub(super) winner: Outcome,
    pub(super) strikes: u8,
}

impl Fight {
    /// The round's winner and its strikes (until the round ends).
    pub fn round_result(&self) -> (Outcome, u8) {
        (self.winner, self.strikes)
    }

    /// Both pools as rolled (until the round ends).
    pub fn rolls(&self) -> (Extremes, Extremes) {
        (self.a_roll, self.b_roll)
    }

    /// The first warrior's condition.
    pub fn a(&self) -> Condition {
        self.a
    }

    /// The second warrior's condition.
    pub fn b(&self) -> Condition {
        self.b
    }
}

/// Sub-steps before the strikes: psychology, A's dice, B's dice (and the
/// winner, when nobody may re-roll), Hatred's re-rolls and the winner.
/// Deciding as soon as the dice allow keeps the exact evaluator's states
/// few: the pools never outlive the sub-step that reads them.
pub(super) const BEFORE_STRIKES: usize = 4;

impl Duel {
    fn modifier(&self, who: Outcome, first: bool) -> i32 {
        let f = if who == Outcome::A { &self.a } else { &self.b };
        let charging = first && self.charger == Some(who);
        f.modifier + f.higher_up_bonus(first) + i32::from(charging)
            - i32::from(charging && self.obstacle)
    }

    fn side(&self, who: Outcome, s: &Fight) -> Side {
        let (c, nerve) = match who {
            Outcome::A => (&s.a, s.a_nerve),
            _ => (&s.b, s.b_nerve),
        };
        Side {
            ws: nerve.ws(c.ws),
            modifier: self.modifier(who, !s.later),
        }
    }

    /// The most strikes one round can deal: the largest score difference.
    pub fn max_strikes(&self) -> u8 {
        let most = |f: &Fighter, other: &Fighter, who: Outcome| -> i32 {
            let n = i32::from(f.attack_dice());
            i32::from(f.stats.ws)
                + 6
                + (n - 1).max(0)
                + i32::from(other.attack_dice())
                + self.modifier(who, true).max(self.modifier(who, false))
        };
        let least = |f: &Fighter, who: Outcome| -> i32 {
            self.modifier(who, true).min(self.modifier(who, false)) - i32::from(f.attack_dice())
        };
        let ab = most(&self.a, &self.b, Outcome::A) - least(&self.b, Outcome::B);
        let ba = most(&self.b, &self.a, Outcome::B) - least(&self.a, Outcome::A);
        ab.max(ba).clamp(1, 255) as u8
    }

    /// Most Attack Dice either side can roll.
    pub(super) fn max_dice(&self) -> u8 {
        self.a.attack_dice().max(self.b.attack_dice())
    }

    /// Whether either warrior can ever hurt the other (else the fight never
    /// ends).
    pub fn can_end(&self) -> bool {
        let hurts = |x: &Fighter, y: &Fighter| {
            x.armed.in_hand.iter().any(|w| {
                let h = w.hit(x.strength);
                h.wound_target(y.stats.toughness).is_some() && h.damage.max() > 0
            })
        };
        hurts(&self.a, &self.b) || hurts(&self.b, &self.a)
    }

    pub(super) fn start(&self) -> Fight {
        Fight {
            a: self.a.stats.fresh(),
            b: self.b.stats.fresh(),
            later: false,
            a_nerve: Nerve::Steady,
            b_nerve: Nerve::Steady,
            charge_failed: false,
            a_dazed: false,
            b_dazed: false,
            a_roll: Extremes::default(),
            b_roll: Extremes::default(),
            winner: Outcome::Pending,
            strikes: 0,
        }
    }

    /// The charge's Fear and Terror tests ("Charging an opponent that causes
    /// Fear ... Failing results in the Warrior standing still"; "Being
    /// Charged by an opponent that causes Fear ... if not they fight as if
    /// their Weapon Skill was halved"; Terror: "they will count as having
    /// Weapon Skill 0"). Reading: the effect lasts the whole combat.
    /// `restricted` says which side failed its Stupidity test this turn
    /// (A, B); `target_tests`: whether the charged warrior tests (a
    /// multiple combat's defender under `multiple_fear_tests = "once"`
    /// tests at the first charge alone).
    pub(super) fn psychology(
        &self,
        dice: &mut impl Roller,
        s: &mut Fight,
        restricted: (bool, bool),
        target_tests: bool,
    ) {
        let Some(charger) = self.charger else {
            return;
        };
        let (chg, tgt, chg_r, tgt_r) = match charger {
            Outcome::A => (&self.a, &self.b, restricted.0, restricted.1),
            _ => (&self.b, &self.a, restricted.1, restricted.0),
        };
        if chg.dread_of(tgt, chg_r).is_some()
            && !leadership_test(dice, u32::from(chg.test_leadership()))
        {
            s.charge_failed = true;
            return;
        }
        if target_tests
            && let Some(c) = tgt.dread_of(chg, tgt_r)
            && !leadership_test(dice, u32::from(tgt.test_leadership()))
        {
            let nerve = if c == Causes::Terror {
                Nerve::Terrified
            } else {
                Nerve::Afraid
            };
            match charger {
                Outcome::A => s.b_nerve = nerve,
                _ => s.a_nerve = nerve,
            }
        }
    }

    /// Hatred: "For the first turn of combat against a Hated enemy a
    /// Warrior affected by Hatred may choose to reroll their Attack Dice
    /// (individual dice or all of them). The second result stands." Both
    /// sides decide on both first rolls, then re-roll.
    pub(super) fn hatred(&self, dice: &mut impl Roller, laws: &Laws, s: &mut Fight) {
        if s.later {
            return;
        }
        let on_draw = draw_winner(&self.a, &self.b);
        let (fa, fb) = (self.fixed(Outcome::A, s), self.fixed(Outcome::B, s));
        let choice_a = self.a.hating().map(|p| {
            let gap = fa - fb - margin_of(s.b_roll);
            choose_reroll(laws, p, s.a_roll, gap, on_draw == Outcome::A)
        });
        let choice_b = self.b.hating().map(|p| {
            let gap = fb - fa - margin_of(s.a_roll);
            choose_reroll(laws, p, s.b_roll, gap, on_draw == Outcome::B)
        });
        if let Some(r) = choice_a {
            s.a_roll = r.kept(s.a_roll).merge(laws.draw(dice, r.count(s.a_roll)));
        }
        if let Some(r) = choice_b {
            s.b_roll = r.kept(s.b_roll).merge(laws.draw(dice, r.count(s.b_roll)));
        }
    }

    /// A side's Weapon Skill and modifiers this round.
    pub(super) fn fixed(&self, who: Outcome, s: &Fight) -> i32 {
        let side = self.side(who, s);
        i32::from(side.ws) + side.modifier
    }

    /// Whether a Hating warrior may re-roll this round.
    pub(super) fn rerolls(&self, s: &Fight) -> bool {
        !s.later && (self.a.hating().is_some() || self.b.hating().is_some())
    }

    /// Sub-steps 1-3 of a round (before the strikes, after the
    /// psychology): A's Attack Dice (and B's, with the winner, when nobody
    /// may re-roll), B's Attack Dice, Hatred's re-rolls and the winner. A
    /// dazed side ("on a 1 - 3 they instead roll no Attack Dice") rolls
    /// none. The one-on-one fight and every fight of a multiple combat.
    pub(super) fn pools(
        &self,
        i: usize,
        dice: &mut impl Roller,
        clashes: &ClashLaws,
        s: &mut Fight,
    ) {
        match i {
            1 => {
                let na = if s.a_dazed { 0 } else { self.a.attack_dice() };
                if self.rerolls(s) {
                    s.a_roll = clashes.laws.draw(dice, na);
                } else {
                    let nb = if s.b_dazed { 0 } else { self.b.attack_dice() };
                    let edge = self.fixed(Outcome::A, s) - self.fixed(Outcome::B, s);
                    let on_draw = draw_winner(&self.a, &self.b);
                    (s.winner, s.strikes) = clashes.clash(dice, edge, na, nb, on_draw);
                    s.a_dazed = false;
                    s.b_dazed = false;
                }
            }
            2 if self.rerolls(s) => {
                let n = if s.b_dazed { 0 } else { self.b.attack_dice() };
                s.b_roll = clashes.laws.draw(dice, n);
            }
            3 if self.rerolls(s) => {
                self.hatred(dice, &clashes.laws, s);
                self.resolve(s);
            }
            _ => {}
        }
    }

    /// Steps 3-5: scores, winner, strikes; the pools are then forgotten.
    pub(super) fn resolve(&self, s: &mut Fight) {
        let a = combat_score(self.side(Outcome::A, s), s.a_roll, s.b_roll);
        let b = combat_score(self.side(Outcome::B, s), s.b_roll, s.a_roll);
        let (winner, strikes) = decide(a, b, draw_winner(&self.a, &self.b));
        s.winner = winner;
        s.strikes = strikes;
        s.a_roll = Extremes::default();
        s.b_roll = Extremes::default();
        s.a_dazed = false;
        s.b_dazed = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::Faces;
    use crate::engine::repeat_model::Repeated;
    use crate::systems::gce::melee::fighter::warrior;
    use crate::systems::gce::warrior::Status;

    /// Runs one round of `duel` on listed dice and returns the state at its
    /// end, before the round is cleared.
    fn one_round(duel: Duel, faces: &[u32]) -> (Fight, usize) {
        let model = duel.into_model();
        let rule = model.rule();
        let mut dice = Faces(faces.iter().copied().collect());
        let mut s = rule.start();
        for i in 0..rule.sub_steps() {
            rule.sub_step(i, &mut dice, &mut s);
        }
        (s, dice.0.len())
    }

    #[test]
    fn grimgutz_charges_krixit_and_strikes_once() {
        // "Grimgutz (Weapon Skill 3) Charges Krixit (WS 2). He rolls his single
        // Attack Dice and gets a 4. Krixit rolls his two Attack Dice and gets a
        // 3 and a 5. Grimgutz scores 8 ... Krixit scores 7"; "Grimgutz wins and
        // inflicts one Hit (8 - 7 = 1)."
        let grimgutz = warrior(3, 1, &["shoota", "choppa"]);
        let krixit = warrior(2, 1, &["choppa"]);
        let duel = Duel {
            a: grimgutz,
            b: krixit,
            charger: Some(Outcome::A),
            obstacle: false,
        };
        // dice 4 | 3 5 | the strike: Choppa S4 v T3 wounds on 3+ (3), no save,
        // Damage 1 takes Krixit's only Wound, Injury 4: Down, so Out of Action
        let (s, left) = one_round(duel, &[4, 3, 5, 3, 4]);
        assert_eq!(left, 0, "every listed die used");
        assert_eq!(s.round_result(), (Outcome::A, 1));
        assert_eq!(
            s.b().status,
            Status::OutOfAction,
            "Krixit, the loser, suffers the hit"
        );
        assert_eq!(s.a(), Condition::new(1, 3, 3), "Grimgutz is untouched");
    }

    #[test]
    fn ibstekia_boxcars_inflict_five_hits_alternating_weapons() {
        // "Ibstekia (WS 2) is Charged by Uxolur (WS 3). He rolls two Attack
        // Dice and gets two sixes! ... Uxolur rolls his single dice and gets a
        // result of 1!"; "Ibstekia scored 10, Uxolur scored 5. Ibstekia wins and
        // inflicts five Hits (10 - 5 = 5)."
        let ibstekia = warrior(2, 1, &["choppa", "slugga", "slugga"]);
        let mut uxolur = warrior(3, 1, &["demilune"]);
        uxolur.stats.wounds = 5;
        uxolur.stats.toughness = 4;
        let duel = Duel {
            a: ibstekia,
            b: uxolur,
            charger: Some(Outcome::B),
            obstacle: false,
        };
        // dice 6 6 | 1 | five strikes on T4 alternating Choppa (S4: 4+) and
        // Slugga (S3: 5+): each wound roll a 4, so only the Choppa's three
        // strikes (the first, third and fifth) wound: 3 Damage of 5 Wounds.
        let (s, left) = one_round(duel, &[6, 6, 1, 4, 4, 4, 4, 4]);
        assert_eq!(left, 0);
        assert_eq!(s.round_result(), (Outcome::A, 5));
        assert_eq!(s.b().wounds_left, 2, "Uxolur takes the three Choppa wounds");
        assert_eq!(s.a().wounds_left, 1);
    }
}
