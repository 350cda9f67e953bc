//! One close-combat attack played out (Chapter 4, Steps 3-6): the to-hit
//! pool (CC dice keeping up to Str against the defender's CC), the defence
//! pool (against the attacker's CC, each pass removing an attacking die),
//! the breaking D6s, and the wound roll against Body + save. Exact by
//! dynamic programmes over both pools' counts and a binomial wound roll;
//! sampled on real dice.

use super::moves::{Attack, Defence};
use super::situation::{CcWeapon, Dread, Fight, Numbers};
use crate::dice::Roller;
use crate::systems::krygothic::dice::{Pool, attribute_check, binomial, count_passes, p_meets};
use std::collections::BTreeMap;

/// What one attack did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CcOut {
    /// The defender failed its fear (or pure horror) test.
    pub fear_failed: bool,
    /// To-hit dice kept.
    pub hits: u8,
    /// Attacking dice left after the defence roll.
    pub left: u8,
    /// Wounds caused.
    pub wounds: u8,
    /// Knocked back (shove), inches.
    pub knockback: u8,
    /// A score of 18 from sixes.
    pub critical_pass: bool,
    /// Every to-hit die a 1.
    pub critical_fail: bool,
    /// The defender breaks off.
    pub breaks_off: bool,
    /// The attacker's ranged weapon breaks (bunt).
    pub attacker_weapon_breaks: bool,
    /// The defender's ranged weapon breaks (deflect).
    pub defender_weapon_breaks: bool,
    /// Counter attack: 1 the defender attacks for free, 2 the attacker.
    pub free_attack: u8,
    /// Wound saves the attacker makes (point blank shot: missed dice).
    pub own_wound_saves: u8,
    /// Tackle: inches both combatants move (Strength + passed to-hit dice).
    pub tackle_inches: u8,
    /// Leg sweep got through: the opponent spends 1 AP getting up.
    pub knocked_down: bool,
    /// Wounds on the attacker's own unit after a critical fail ("all
    /// damage is done to your own unit").
    pub own_wounds: u8,
}

pub(crate) fn pools(f: &Fight, n: &Numbers, attack: Attack) -> (Pool, Pool) {
    let clamp = |x: i32| x.clamp(0, 60) as u8;
    (
        Pool {
            dice: clamp(n.att_cc),
            // point blank shot counts the dice that miss: keep every pass
            // here, and at most Str of them in `Exchange::base`
            keep: if attack == Attack::PointBlank {
                clamp(n.att_cc)
            } else {
                clamp(n.att_str)
            },
            target: n.def_cc,
            reading: f.reading,
            critical: f.critical,
        },
        Pool {
            dice: clamp(n.def_dice),
            keep: clamp(n.def_keep),
            target: n.att_cc,
            reading: f.reading,
            critical: f.critical,
        },
    )
}

/// One attack: the pure rule, for the exact law and the sampler alike.
#[derive(Clone, Copy, Debug)]
pub struct Exchange {
    /// The situation.
    pub fight: Fight,
    /// The attack type.
    pub attack: Attack,
    /// The defence type.
    pub defence: Defence,
}

impl Exchange {
    /// Attacking dice left after `def_kept` defence passes, and the
    /// counter attack's free attack (1 defender, 2 attacker).
    fn after_defence(&self, hits: u8, def_kept: u8) -> (u8, u8) {
        if self.defence == Defence::Counter {
            (hits, if def_kept > hits { 1 } else { 2 })
        } else {
            (hits - def_kept.min(hits), 0)
        }
    }

    /// The wound dice and their target: the dice left against the
    /// defender, or after a critical fail the most dice the attack could
    /// keep (CC dice, at most Str) against the attacker's own unit
    /// (Critical passes and fails: "all damage is done to your own unit").
    /// Shove and tackle cause no wounds either way.
    pub(crate) fn wound_roll(&self, n: &Numbers, critical_fail: bool, left: u8) -> (u32, i32) {
        if matches!(self.attack, Attack::Tackle | Attack::Shove) && critical_fail {
            (0, n.to_wound)
        } else if critical_fail {
            let most = n.att_cc.min(n.att_str).clamp(0, 60) as u32;
            (most, n.own_to_wound)
        } else if self.attack == Attack::Tackle {
            (0, n.to_wound)
        } else {
            (u32::from(left), n.to_wound)
        }
    }

    pub(crate) fn finish(&self, n: &Numbers, mut o: CcOut, passes: u32) -> CcOut {
        if o.critical_fail {
            o.own_wounds = passes as u8;
        } else if self.attack == Attack::Shove {
            o.knockback = passes.min(n.att_str.max(0) as u32) as u8;
        } else if self.attack != Attack::Tackle {
            let w = passes as u8;
            o.wounds = if o.critical_pass { 2 * w } else { w };
        }
        if o.wounds > 0 && self.weapon_effect(|w| w.lasso) {
            o.knocked_down = true;
        }
        o
    }

    /// Whether the attack uses the attacker's weapon and it has `effect`
    /// ("these bonuses are only used if an attack which actually uses the
    /// weapon is chosen").
    pub fn weapon_effect(&self, effect: impl Fn(&CcWeapon) -> bool) -> bool {
        self.attack == Attack::Weapon && self.fight.attacker.weapon.as_ref().is_some_and(effect)
    }

    /// The outcome so far from the to-hit passes (all of them for a point
    /// blank shot, else those kept) and the defence passes kept.
    pub(crate) fn base(
        &self,
        n: &Numbers,
        fear_failed: bool,
        passes: u8,
        cp: bool,
        cf: bool,
        dk: u8,
    ) -> CcOut {
        let str_keep = n.att_str.clamp(0, 60) as u8;
        let hits = passes.min(str_keep);
        let (left, free_attack) = self.after_defence(hits, dk);
        CcOut {
            fear_failed,
            hits,
            left,
            critical_pass: cp,
            critical_fail: cf,
            breaks_off: self.defence == Defence::BreakOff && left == 0,
            free_attack,
            own_wound_saves: if self.attack == Attack::PointBlank {
                (n.att_cc.clamp(0, 60) as u8).saturating_sub(passes)
            } else {
                0
            },
            tackle_inches: if self.attack == Attack::Tackle {
                str_keep.saturating_add(hits)
            } else {
                0
            },
            knocked_down: self.attack == Attack::LegSweep && left > 0,
            ..CcOut::default()
        }
    }

    /// The exact law of the attack.
    pub fn law(&self) -> Vec<(CcOut, f64)> {
        let q = self.fight.p_fear_fails();
        let mut out: BTreeMap<CcOut, f64> = BTreeMap::new();
        for (fear_failed, pf) in [(false, 1.0 - q), (true, q)] {
            if pf == 0.0 {
                continue;
            }
            for (o, p) in self.law_given(fear_failed) {
                *out.entry(o).or_insert(0.0) += pf * p;
            }
        }
        out.into_iter().collect()
    }

    /// The exact law of the attack once the fear test is known (a fight
    /// rolls the test once, before its first attack).
    pub fn law_given(&self, fear_failed: bool) -> Vec<(CcOut, f64)> {
        let mut out: BTreeMap<CcOut, f64> = BTreeMap::new();
        let n = self.fight.numbers(self.attack, self.defence, fear_failed);
        let (att, def) = pools(&self.fight, &n, self.attack);
        let mut def_law: BTreeMap<u8, f64> = BTreeMap::new();
        for (po, p) in def.law() {
            *def_law.entry(po.kept).or_insert(0.0) += p;
        }
        for (pa, p1) in att.law() {
            for (&dk, &p2) in &def_law {
                let o = self.base(
                    &n,
                    fear_failed,
                    pa.kept,
                    pa.critical_pass,
                    pa.critical_fail,
                    dk,
                );
                let bunt = self.attack == Attack::Bunt && o.hits > 0;
                let negated = dk.min(o.hits);
                let deflect = self.defence == Defence::Deflect && negated > 0;
                let mut breaks = vec![(o, 1.0)];
                if bunt {
                    breaks = breaks
                        .into_iter()
                        .flat_map(|(o, p)| {
                            [
                                (
                                    CcOut {
                                        attacker_weapon_breaks: true,
                                        ..o
                                    },
                                    p / 6.0,
                                ),
                                (o, p * 5.0 / 6.0),
                            ]
                        })
                        .collect();
                }
                if deflect {
                    let q = self.fight.deflect_break.p_breaks(negated);
                    breaks = breaks
                        .into_iter()
                        .flat_map(|(o, p)| {
                            [
                                (
                                    CcOut {
                                        defender_weapon_breaks: true,
                                        ..o
                                    },
                                    p * q,
                                ),
                                (o, p * (1.0 - q)),
                            ]
                        })
                        .filter(|(_, p)| *p > 0.0)
                        .collect();
                }
                for (o, p3) in breaks {
                    let (dice, target) = self.wound_roll(&n, o.critical_fail, o.left);
                    let pw = p_meets(target, self.fight.reading);
                    for (passes, p4) in binomial(dice, pw).into_iter().enumerate() {
                        let o = self.finish(&n, o, passes as u32);
                        *out.entry(o).or_insert(0.0) += p1 * p2 * p3 * p4;
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    /// The attack on real dice.
    pub fn roll<R: Roller>(&self, dice: &mut R) -> CcOut {
        let fear_failed = match self.fight.dread {
            Dread::None => false,
            _ => !attribute_check(dice, self.fight.will_dice(), 6, self.fight.reading),
        };
        self.roll_given(dice, fear_failed)
    }

    /// The attack on real dice once the fear test is known.
    pub fn roll_given<R: Roller>(&self, dice: &mut R, fear_failed: bool) -> CcOut {
        let n = self.fight.numbers(self.attack, self.defence, fear_failed);
        let (att, def) = pools(&self.fight, &n, self.attack);
        let pa = att.roll(dice);
        let dk = def.roll(dice).kept;
        let mut o = self.base(
            &n,
            fear_failed,
            pa.kept,
            pa.critical_pass,
            pa.critical_fail,
            dk,
        );
        if self.attack == Attack::Bunt && o.hits > 0 {
            o.attacker_weapon_breaks = dice.d6() == 6;
        }
        let negated = dk.min(o.hits);
        if self.defence == Defence::Deflect && negated > 0 {
            o.defender_weapon_breaks = self.fight.deflect_break.breaks(dice.d6(), negated);
        }
        let (wd, target) = self.wound_roll(&n, o.critical_fail, o.left);
        let passes = count_passes(dice, wd, target, self.fight.reading);
        self.finish(&n, o, passes)
    }

    /// Expected wounds and P(at least one wound).
    pub fn payoff(&self) -> (f64, f64) {
        let law = self.law();
        let mean = law.iter().map(|(o, p)| f64::from(o.wounds) * p).sum();
        let any = law.iter().filter(|(o, _)| o.wounds > 0).map(|x| x.1).sum();
        (mean, any)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::krygothic::close::situation::{
        DeflectBreak, Fighter, fight, joe, played, unavailable,
    };
    use crate::systems::krygothic::ranged::tests::Script;

    /// The exchange face tables at a fixed seed, every outcome's count
    /// held to the attack's exact law by Bernstein's bound (Bonferroni over
    /// the outcomes): every attack type against a defence that uses its
    /// own step (dodge's Speed + 2, deflect's break D6 on a bunt's break
    /// D6, parry after a fear test, a counter attack, break off after pure
    /// horror, block), one of them by a lasso (knocked down on a wound).
    /// By hand, kick against dodge: three dice against CC 2 keep 2, two
    /// dice against 3 keep 5, the dice left against Body 2: P(critical
    /// fail) = P(three 1s) = 1/216, and no weapon breaks.
    #[test]
    fn exchange_face_tables_follow_the_law() {
        use crate::dice::BatchedRoller;
        use crate::systems::krygothic::fast::{ExchangeFaces, check};
        let armed = |w: CcWeapon| Fighter {
            weapon: Some(w),
            ..joe()
        };
        let axe = CcWeapon {
            cc: -1,
            strength: 2,
            armour_piercing: true,
            lasso: true,
            ..CcWeapon::default()
        };
        let knife = CcWeapon {
            cc: 1,
            ..CcWeapon::default()
        };
        let gun = Fighter {
            ranged_weapon: true,
            ..joe()
        };
        let mut feared = fight(armed(axe), armed(knife));
        feared.dread = Dread::Fear;
        feared.charged = true;
        let mut horror = fight(joe(), joe());
        horror.dread = Dread::PureHorror;
        let mut example = fight(gun, gun);
        example.deflect_break = DeflectBreak::Example;
        let cases = [
            (fight(joe(), joe()), Attack::Kick, Defence::Dodge),
            (example, Attack::Bunt, Defence::Deflect),
            (feared, Attack::Weapon, Defence::Parry),
            (fight(gun, joe()), Attack::PointBlank, Defence::Counter),
            (horror, Attack::Tackle, Defence::BreakOff),
            (fight(joe(), joe()), Attack::Shove, Defence::Block),
            (fight(joe(), joe()), Attack::LegSweep, Defence::Passive),
        ];
        for (i, (fight, attack, defence)) in cases.into_iter().enumerate() {
            let ex = Exchange {
                fight,
                attack,
                defence,
            };
            let faces = ExchangeFaces::new(&ex).expect("the faces fit");
            let mut probs = vec![0.0; faces.ends().len() + 1];
            for (o, p) in ex.law() {
                let at = faces.ends().iter().position(|e| *e == o);
                probs[at.unwrap_or(faces.ends().len())] += p;
            }
            let trials = 1_000_000;
            let mut counts = faces.count(&mut BatchedRoller::new(3, &[i as u64]), trials);
            counts.push(0);
            let what = format!("{attack:?} against {defence:?}");
            check::counts_match(&what, &counts, &probs);
            if i == 0 {
                let n = trials as f64;
                let p = 1.0 / 216.0;
                let cf: u64 = faces
                    .ends()
                    .iter()
                    .zip(&counts)
                    .filter(|(o, _)| o.critical_fail)
                    .map(|x| x.1)
                    .sum();
                assert!((cf as f64 - n * p).abs() <= check::bernstein(n, p, 1e-7));
                assert!(faces.ends().iter().all(|o| !o.defender_weapon_breaks));
            }
        }
    }

    /// Step 3: "if the player has CC 4 and Strength 3, he can roll 4 dice
    /// and keep up to 3 that pass the target number of the other players CC
    /// stat". Example #1: the attacker kicked (CC 4 + 1 = 5), three dice
    /// passed; the passive defender (CC 3, Speed 4) "rolls a 4, 3 and a 5
    /// ... One dice passed target 5, and so he removes 1 dice from the
    /// attacking player, reducing it from 3 to 2."
    #[test]
    fn defence_example_one() {
        let att = Fighter {
            cc: 4,
            strength: 3,
            ..joe()
        };
        let def = Fighter {
            cc: 3,
            speed: 4,
            ..joe()
        };
        let ex = Exchange {
            fight: fight(att, def),
            attack: Attack::Kick,
            defence: Defence::Passive,
        };
        let n = ex.fight.numbers(Attack::Kick, Defence::Passive, false);
        assert_eq!((n.att_cc, n.att_str, n.def_dice, n.def_keep), (5, 3, 3, 4));
        // to hit: five dice against CC 3: 6, 5, 4, 1, 2 -> three pass
        let (a, d) = pools(&ex.fight, &n, Attack::Kick);
        let pa = a.roll(&mut Script(vec![6, 5, 4, 1, 2], 0));
        assert_eq!(pa.kept, 3);
        let dk = d.roll(&mut Script(vec![4, 3, 5], 0)).kept;
        assert_eq!(dk, 1);
        assert_eq!(ex.after_defence(pa.kept, dk).0, 2);
    }

    /// Example #2: "chooses the defence 'deflect', adding +2CC. He rolls 5
    /// dice, and gets 6, 4, 1, 5, 3. He can keep 4 dice ... passed the
    /// target number of 5 ... He removes 2 dice from the attackers pool,
    /// leaving him with 1."
    #[test]
    fn defence_example_two() {
        let att = Fighter {
            cc: 4,
            strength: 3,
            ..joe()
        };
        let def = Fighter {
            cc: 3,
            speed: 4,
            ranged_weapon: true,
            ..joe()
        };
        let ex = Exchange {
            fight: fight(att, def),
            attack: Attack::Kick,
            defence: Defence::Deflect,
        };
        let n = ex.fight.numbers(Attack::Kick, Defence::Deflect, false);
        assert_eq!((n.def_dice, n.def_keep, n.att_cc), (5, 4, 5));
        let (_, d) = pools(&ex.fight, &n, Attack::Kick);
        let dk = d.roll(&mut Script(vec![6, 4, 1, 5, 3], 0)).kept;
        assert_eq!(dk, 2);
        assert_eq!(ex.after_defence(3, dk).0, 1);
    }

    /// Point blank shot: "attacker must make 1 wound save for every to hit
    /// dice that misses" (passes beyond Str are not misses); tackle: "both
    /// combatants move Strength + passed to hit dice".
    #[test]
    fn point_blank_and_tackle() {
        let att = Fighter {
            cc: 4,
            strength: 1,
            ranged_weapon: true,
            ..joe()
        };
        let ex = Exchange {
            fight: fight(att, joe()),
            attack: Attack::PointBlank,
            defence: Defence::Passive,
        };
        // to hit against CC 2: 5, 3, 1, 1 -> two pass, one kept; defence 1, 1;
        // the wound die 1
        let o = ex.roll(&mut Script(vec![5, 3, 1, 1, 1, 1, 1], 0));
        assert_eq!((o.hits, o.own_wound_saves), (1, 2));
        let ex = Exchange {
            attack: Attack::Tackle,
            ..ex
        };
        let o = ex.roll(&mut Script(vec![5, 3, 1, 1, 1, 1, 1], 0));
        assert_eq!((o.hits, o.tackle_inches, o.wounds), (1, 2, 0));
    }

    /// Weapon effects: a lasso knocks over on a wound, a wrapping weapon
    /// cannot be parried (nor parry), Multiple wounds costs no AP.
    #[test]
    fn weapon_effects() {
        let rope = CcWeapon {
            lasso: true,
            wrap: true,
            ..CcWeapon::default()
        };
        let knife = CcWeapon {
            cc: 2,
            strength: -1,
            ..CcWeapon::default()
        };
        let att = Fighter {
            weapon: Some(rope),
            ..joe()
        };
        let def = Fighter {
            weapon: Some(knife),
            ..joe()
        };
        let f = fight(att, def);
        assert!(unavailable(&f, Attack::Weapon, Defence::Parry).is_some());
        assert_eq!(played(&f, Attack::Weapon, Defence::Parry), Defence::Passive);
        let g = fight(def, att);
        assert!(unavailable(&g, Attack::Weapon, Defence::Parry).is_some());
        let ex = Exchange {
            fight: f,
            attack: Attack::Weapon,
            defence: Defence::Passive,
        };
        for (o, _) in ex.law() {
            assert_eq!(o.knocked_down, o.wounds > 0, "{o:?}");
        }
        let ex = Exchange {
            attack: Attack::Kick,
            ..ex
        };
        assert!(ex.law().iter().all(|(o, _)| !o.knocked_down));
    }

    #[test]
    fn exact_law_matches_enumerating_every_roll() {
        use crate::dice::enumerate;
        let ranged = Fighter {
            ranged_weapon: true,
            will: 1,
            ..joe()
        };
        for (a, d, dread) in [
            (Attack::Kick, Defence::Counter, Dread::Fear),
            (Attack::Bunt, Defence::Deflect, Dread::None),
            (Attack::Shove, Defence::Block, Dread::PureHorror),
            (Attack::PointBlank, Defence::BreakOff, Dread::None),
        ] {
            let mut f = fight(ranged, ranged);
            f.dread = dread;
            let ex = Exchange {
                fight: f,
                attack: a,
                defence: d,
            };
            let law = ex.law();
            let brute = enumerate(1 << 22, |r| ex.roll(r)).unwrap();
            for (o, p) in &law {
                let q: f64 = brute.iter().filter(|(x, _)| x == o).map(|x| x.1).sum();
                assert!((p - q).abs() < 1e-10, "{a:?} {d:?} {o:?}: {p} vs {q}");
            }
            assert!((law.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }
}
