//! Close combat (Chapter 4, "Steps for Close Combat"): one attack of a
//! chosen type against a chosen defence. To hit: CC dice keeping up to Str
//! that meet the defender's CC; the defence roll: CC dice keeping up to
//! Speed (Str with Block) against the attacker's CC, each pass removing one
//! attacking die; the remaining dice roll to wound against Body + save.
//! Exact by dynamic programmes over both pools' counts and a binomial wound
//! roll; sampled on real dice.

use super::dice::{Critical, Pool, Reading, binomial, count_passes, p_attribute_check, p_meets};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::outcome_model::Outcomes;
use crate::systems::ParamDecl;
use crate::systems::{MetricDecl, MetricList, Model, ParamError, Params};
use std::collections::BTreeMap;

/// "Attack types" (Step 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Attack {
    /// "Use CC weapon: ... Add stats according to weapon."
    Weapon,
    /// "Kick: +1 CC stat."
    Kick,
    /// "Punch: +1 Strength"
    Punch,
    /// "Shove: +2 CC. Causes no wounds. Knocks the enemy back 1 inch for
    /// every "wound" roll passed (maximum attackers Strength)"
    Shove,
    /// "Head butt: Opponent –1 Body."
    HeadButt,
    /// "Leg sweep: opponent cannot use break off maneuver, and must spend 1
    /// AP getting up."
    LegSweep,
    /// "Tackle: ... If object is hit, enemy must make inches traveled wound
    /// saves, otherwise no wounds are caused." (no object here)
    Tackle,
    /// "Bunt: ... Add str+2 to the attack. If attack hits, roll a d6. On a
    /// 6 the weapon breaks."
    Bunt,
    /// "Point blank shot: ... attacker must make 1 wound save for every to
    /// hit dice that misses."
    PointBlank,
}

/// Every attack type with its word, in order.
pub const ATTACKS: [(Attack, &str); 9] = [
    (Attack::Weapon, "weapon"),
    (Attack::Kick, "kick"),
    (Attack::Punch, "punch"),
    (Attack::Shove, "shove"),
    (Attack::HeadButt, "head_butt"),
    (Attack::LegSweep, "leg_sweep"),
    (Attack::Tackle, "tackle"),
    (Attack::Bunt, "bunt"),
    (Attack::PointBlank, "point_blank_shot"),
];

/// The attack types' words, in [`ATTACKS`] order (taken from it, so the two
/// cannot drift).
pub const ATTACK_WORDS: &[&str] = &{
    let mut w = [""; ATTACKS.len()];
    let mut i = 0;
    while i < w.len() {
        w[i] = ATTACKS[i].1;
        i += 1;
    }
    w
};

/// "Choose a defense class" and "Choose defense type" (Steps 1 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Defence {
    /// Passive defence: the roll to avoid the hit with no bonus (free).
    Passive,
    /// "Parry: Add your close combat weapons stat before the K to your CC
    /// roll. Both the defending and attacking player must be using a close
    /// combat weapon."
    Parry,
    /// "Deflect: Using a ranged weapon to block, you get +2 to your CC. If
    /// hits are negated, roll a D6. On a 6 the weapon breaks."
    Deflect,
    /// "Dodge: Add +2 to your speed stat for avoiding the hit."
    Dodge,
    /// "Break off: If the attacker misses in their attempt to hit you, you
    /// can remove yourself from combat".
    BreakOff,
    /// "Block: You can use your Str stat instead of Speed for blocking."
    Block,
    /// "Counter attack: Roll to dodge as normal, but do not take any of the
    /// attackers dice away. If you get more successes than the attacker, you
    /// can attack once for free. If you fail, the attacker gets one attack
    /// for free."
    Counter,
}

/// Every defence with its word, in order.
pub const DEFENCES: [(Defence, &str); 7] = [
    (Defence::Passive, "passive"),
    (Defence::Parry, "parry"),
    (Defence::Deflect, "deflect"),
    (Defence::Dodge, "dodge"),
    (Defence::BreakOff, "break_off"),
    (Defence::Block, "block"),
    (Defence::Counter, "counter_attack"),
];

/// The defences' words, in [`DEFENCES`] order (taken from it).
pub const DEFENCE_WORDS: &[&str] = &{
    let mut w = [""; DEFENCES.len()];
    let mut i = 0;
    while i < w.len() {
        w[i] = DEFENCES[i].1;
        i += 1;
    }
    w
};

/// A close-combat weapon: "-1cc/+2str", maybe armour piercing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcWeapon {
    /// Before the /: added to CC.
    pub cc: i32,
    /// After the /: added to Strength.
    pub strength: i32,
    /// "If the word armor piercing is with the weapon, then reduce amour".
    pub armour_piercing: bool,
    /// "Multiple wounds: All dice that pass cause 1 wound each": no AP for
    /// the extra wounds.
    pub multiple_wounds: bool,
    /// "Wrap: Opponent cannot use parry ... Wrapping weapons cannot parry."
    pub wrap: bool,
    /// "Lasso: If weapon causes any wounds, the victim falls over. 1AP must
    /// be spent to stand back up."
    pub lasso: bool,
}

/// One side's stat line and kit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fighter {
    /// CC.
    pub cc: i32,
    /// Strength.
    pub strength: i32,
    /// Speed.
    pub speed: i32,
    /// Body.
    pub body: i32,
    /// Armour bonus (the save added to Body).
    pub save: i32,
    /// Willpower.
    pub will: i32,
    /// A close-combat weapon, if any.
    pub weapon: Option<CcWeapon>,
    /// Carries a ranged weapon (bunt, point blank shot, deflect).
    pub ranged_weapon: bool,
}

/// Who causes fear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dread {
    /// Nothing.
    None,
    /// The attacker causes fear: "the victim unit must roll a willpower
    /// roll against a target of 6. If they fail, halve their CC attribute
    /// for the first attack".
    Fear,
    /// Pure horror: "halve the non-horror causing units WILL attribute
    /// (rounded down), and roll against a target number of 6", with the
    /// same effects as fear.
    PureHorror,
}

/// When a deflecting ranged weapon breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeflectBreak {
    /// Step 4: "If hits are negated, roll a D6. On a 6 the weapon breaks."
    OnSix,
    /// Step 5, Example #2: "because he chose 'deflect' and he succeded in
    /// removing two dice from the attacker, he must make a roll of 4 (base
    /// 2+2) to see if the weapon breaks. He rolls a 4 and is ok": the D6
    /// must reach 2 + the dice negated, and breaks below it.
    Example,
}

impl DeflectBreak {
    /// Whether the weapon breaks on `face` after `negated` dice were
    /// removed (at least one).
    pub fn breaks(self, face: u32, negated: u8) -> bool {
        match self {
            DeflectBreak::OnSix => face == 6,
            DeflectBreak::Example => face < 2 + u32::from(negated),
        }
    }

    /// P(the weapon breaks) after `negated` dice were removed.
    pub fn p_breaks(self, negated: u8) -> f64 {
        (1..=6u32).filter(|&f| self.breaks(f, negated)).count() as f64 / 6.0
    }
}

/// How a counter attack's roll reads "Roll to dodge as normal" (variant
/// `counter_roll`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterRoll {
    /// Step 5's normal roll to avoid the hit, "roll ccKspeed", with no
    /// bonus of its own: "as normal, but do not take any of the attackers
    /// dice away" sets aside Step 5's "For each dice that passes, remove
    /// one dice of the attacker".
    Plain,
    /// The Dodge defence's roll: "Dodge: Add +2 to your speed stat for
    /// avoiding the hit", so CC dice keeping up to Speed + 2.
    Dodge,
}

/// A close-combat situation between two fighters.
#[derive(Clone, Copy, Debug)]
pub struct Fight {
    /// The attacker.
    pub attacker: Fighter,
    /// The defender.
    pub defender: Fighter,
    /// The attacker initiated the combat: "+1 bonus to their CC" in the
    /// first round.
    pub initiator: bool,
    /// The attacker charged: "+2 bonus to their CC" in the first round.
    pub charged: bool,
    /// The defender charged in: "a body stat of -2 for the first attack
    /// the opponent has" (this attack).
    pub defender_charged: bool,
    /// Fear or pure horror caused by the attacker.
    pub dread: Dread,
    /// The 7+ reading.
    pub reading: Reading,
    /// The 18-from-sixes reading.
    pub critical: Critical,
    /// When a deflecting weapon breaks.
    pub deflect_break: DeflectBreak,
    /// What a counter attack's defence roll keeps.
    pub counter_roll: CounterRoll,
}

/// Why an attack or defence cannot be chosen, or `None`.
pub fn unavailable(f: &Fight, a: Attack, d: Defence) -> Option<&'static str> {
    if a == Attack::Weapon && f.attacker.weapon.is_none() {
        return Some("'weapon' needs the attacker's close-combat weapon");
    }
    if matches!(a, Attack::Bunt | Attack::PointBlank) && !f.attacker.ranged_weapon {
        return Some("bunt and point blank shot need the attacker's ranged weapon");
    }
    if d == Defence::Parry && (a != Attack::Weapon || f.defender.weapon.is_none()) {
        return Some(
            "parry: \"Both the defending and attacking player must be using a close combat weapon\"",
        );
    }
    if d == Defence::Parry && f.defender.weapon.is_some_and(|w| w.wrap) {
        return Some("\"Wrapping weapons cannot parry\"");
    }
    if d == Defence::Parry && f.attacker.weapon.is_some_and(|w| w.wrap) {
        return Some("a wrapping weapon's \"Opponent cannot use parry\"");
    }
    if d == Defence::Deflect && !f.defender.ranged_weapon {
        return Some("deflect needs the defender's ranged weapon");
    }
    if d == Defence::BreakOff && a == Attack::LegSweep {
        return Some("leg sweep: \"opponent cannot use break off maneuver\"");
    }
    None
}

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

/// The numbers of one attack after every modifier, for one fear outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// Attacker's CC (dice, and the defender's target).
    pub att_cc: i32,
    /// Attacker's Str (to-hit dice kept at most).
    pub att_str: i32,
    /// Defender's CC (the attacker's target).
    pub def_cc: i32,
    /// Defence dice.
    pub def_dice: i32,
    /// Defence passes kept at most (Speed, or Str with Block).
    pub def_keep: i32,
    /// The wound target.
    pub to_wound: i32,
    /// The wound target of the attacker's own unit after a critical fail:
    /// its Body + save, with the attack's own modifiers (armour piercing,
    /// head butt).
    pub own_to_wound: i32,
}

impl Fight {
    /// The numbers of attack `a` against defence `d`, the defender's CC
    /// halved (rounded down) when `fear_failed`.
    pub fn numbers(&self, a: Attack, d: Defence, fear_failed: bool) -> Numbers {
        let (at, de) = (&self.attacker, &self.defender);
        let w = at.weapon.unwrap_or_default();
        let mut att_cc = at.cc + i32::from(self.initiator) + 2 * i32::from(self.charged);
        let mut att_str = at.strength;
        let mut body = de.body - 2 * i32::from(self.defender_charged);
        let mut save = de.save;
        let mut own_body = at.body;
        let mut own_save = at.save;
        match a {
            Attack::Weapon => {
                att_cc += w.cc;
                att_str += w.strength;
                if w.armour_piercing {
                    // "reduce amour as per normal": by the weapon's strength
                    save = (save - w.strength.max(0)).max(0);
                    own_save = (own_save - w.strength.max(0)).max(0);
                }
            }
            Attack::Kick => att_cc += 1,
            Attack::Punch => att_str += 1,
            Attack::Shove => att_cc += 2,
            Attack::HeadButt => {
                body -= 1;
                own_body -= 1;
            }
            Attack::Bunt => att_str += 2,
            Attack::LegSweep | Attack::Tackle | Attack::PointBlank => {}
        }
        let def_cc = if fear_failed { de.cc / 2 } else { de.cc };
        let dw = de.weapon.unwrap_or_default();
        let def_dice = def_cc
            + match d {
                Defence::Parry => dw.cc,
                Defence::Deflect => 2,
                _ => 0,
            };
        let def_keep = match d {
            Defence::Dodge => de.speed + 2,
            // "Counter attack: Roll to dodge as normal"
            Defence::Counter if self.counter_roll == CounterRoll::Dodge => de.speed + 2,
            Defence::Block => de.strength,
            _ => de.speed,
        };
        Numbers {
            att_cc,
            att_str,
            def_cc,
            def_dice,
            def_keep,
            to_wound: body + save,
            own_to_wound: own_body + own_save,
        }
    }

    /// P(the defender fails its fear or pure horror test).
    pub fn p_fear_fails(&self) -> f64 {
        match self.dread {
            Dread::None => 0.0,
            Dread::Fear => {
                1.0 - p_attribute_check(self.defender.will.max(0) as u32, 6, self.reading)
            }
            Dread::PureHorror => {
                1.0 - p_attribute_check((self.defender.will / 2).max(0) as u32, 6, self.reading)
            }
        }
    }

    /// The defender's dice for its fear (or pure horror) test.
    pub fn will_dice(&self) -> u32 {
        match self.dread {
            Dread::PureHorror => (self.defender.will / 2).max(0) as u32,
            _ => self.defender.will.max(0) as u32,
        }
    }
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
            _ => !super::dice::attribute_check(dice, self.fight.will_dice(), 6, self.fight.reading),
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

/// The defence actually rolled when `d` is planned against attack `a`: a
/// defence the attack does not allow (parry against anything but a weapon
/// attack, break off against a leg sweep) falls back to the passive roll.
/// Reading: the defence type is chosen after the attack (Step 4 follows
/// Step 2), so planning "parry" means "parry if it can".
pub fn played(f: &Fight, a: Attack, d: Defence) -> Defence {
    if unavailable(f, a, d).is_none() {
        d
    } else {
        Defence::Passive
    }
}

/// A choice with its word.
pub type Named<T> = (T, &'static str);

/// The attacks and defences available in a fight.
pub fn choices(f: &Fight) -> (Vec<Named<Attack>>, Vec<Named<Defence>>) {
    let attacks: Vec<_> = ATTACKS
        .iter()
        .copied()
        .filter(|(a, _)| unavailable(f, *a, Defence::Passive).is_none())
        .collect();
    let defences: Vec<_> = DEFENCES
        .iter()
        .copied()
        .filter(|(d, _)| {
            attacks
                .iter()
                .any(|(a, _)| unavailable(f, *a, *d).is_none())
        })
        .collect();
    (attacks, defences)
}

/// Every metric of the close-combat scenario.
pub const METRICS: [MetricDecl; 18] = [
    MetricDecl::probability("p_hit", "P(hit)", "P(at least one to-hit die kept)"),
    MetricDecl::mean(
        "mean_dice_through",
        "mean dice through",
        "expected attacking dice left after the defence roll",
    ),
    MetricDecl::probability("p_wound", "P(wound)", "P(at least one wound)"),
    MetricDecl::mean(
        "mean_wounds",
        "mean wounds",
        "expected wound dice passed (doubled on a critical pass), if every extra wound's AP is paid",
    ),
    MetricDecl::mean(
        "mean_ap_for_extra_wounds",
        "mean AP for extra wounds",
        "expected AP to make every wound count: 2 for the second wound die that passes, 3 for the third, ... (a critical pass doubles them free; none with Multiple wounds)",
    ),
    MetricDecl::probability(
        "p_critical_pass",
        "P(critical pass)",
        "P(a score of 18 from sixes: double damage)",
    ),
    MetricDecl::probability(
        "p_critical_fail",
        "P(critical fail)",
        "P(every to-hit die a 1: the damage turns on the attacker's own unit)",
    ),
    MetricDecl::probability(
        "p_fear_failed",
        "P(fear test failed)",
        "P(the defender fails its WILL test against fear or pure horror: CC halved)",
    ),
    MetricDecl::probability(
        "p_breaks_off",
        "P(defender breaks off)",
        "break off: P(no attacking die left)",
    ),
    MetricDecl::probability(
        "p_attacker_weapon_breaks",
        "P(attacker's weapon breaks)",
        "bunt: P(the attack hits and the D6 is a 6)",
    ),
    MetricDecl::probability(
        "p_defender_weapon_breaks",
        "P(defender's weapon breaks)",
        "deflect: P(hits negated and the D6 is a 6)",
    ),
    MetricDecl::mean(
        "mean_knockback",
        "mean knock-back (inches)",
        "shove: expected inches knocked back (wound rolls passed, at most the attacker's Str)",
    ),
    MetricDecl::probability(
        "p_defender_free_attack",
        "P(defender's free attack)",
        "counter attack: P(the defender gets more successes than the attacker's hits)",
    ),
    MetricDecl::probability(
        "p_attacker_free_attack",
        "P(attacker's free attack)",
        "counter attack: P(the defender does not)",
    ),
    MetricDecl::mean(
        "mean_own_wound_saves",
        "mean own wound saves",
        "point blank shot: expected to-hit dice that miss (a wound save each for the attacker)",
    ),
    MetricDecl::mean(
        "mean_tackle_inches",
        "mean tackle move (inches)",
        "tackle: expected inches both combatants move (the attacker's Strength + passed to-hit dice)",
    ),
    MetricDecl::probability(
        "p_knocked_down",
        "P(knocked down)",
        "leg sweep: P(an attacking die gets through), or a lasso: P(a wound): the victim spends 1 AP getting up",
    ),
    MetricDecl::probability("wounds={k}", "P({k} wounds)", "P(exactly k wounds)"),
];

/// The attacker's own wounds after a critical fail.
pub const OWN_WOUNDS: MetricDecl = MetricDecl::mean(
    "mean_own_wounds",
    "mean wounds on the attacker's own unit",
    "critical fail (every to-hit die a 1): the dice the attack could keep (CC, at most Str) roll to wound against the attacker's own Body + save",
);

/// Constant metrics: whether this pair is a best reply.
pub const BEST: [MetricDecl; 2] = [
    MetricDecl::yes_no(
        "is_best_defence",
        "is the best defence (fewest mean wounds)",
        "1 when this defence gives the fewest expected wounds against this attack among the defender's choices",
    ),
    MetricDecl::probability(
        "is_best_attack",
        "best attack (1/0)",
        "1 when this attack gives the most expected wounds against this defence among the attacker's choices",
    ),
];

/// The scenario's metric catalogue.
pub fn metric_catalog() -> Vec<MetricDecl> {
    METRICS
        .iter()
        .chain(std::iter::once(&OWN_WOUNDS))
        .chain(BEST.iter())
        .copied()
        .collect()
}

/// The close-combat rule with its metric handles.
pub struct CloseRule {
    ex: Exchange,
    free_extra_wounds: bool,
    list: MetricList,
    m: Vec<Metric>,
    wounds: Vec<Metric>,
    own: Metric,
    best: [(Metric, bool); 2],
}

impl Outcomes for CloseRule {
    type Out = CcOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> CcOut {
        self.ex.roll(dice)
    }

    fn law(&self) -> Vec<(CcOut, f64)> {
        self.ex.law()
    }

    fn record(&self, o: &CcOut, sink: &mut impl MetricSink) {
        let m = &self.m;
        let w = u64::from(o.wounds);
        // "for each dice that passes, the attacker can spend AP to make the
        // extra wounds count ... 2 AP for the second wound, 3 AP for the
        // third": the dice that pass are paid for, a critical pass's
        // doubling comes free
        let passed = if o.critical_pass { w / 2 } else { w };
        let vals = [
            u64::from(o.hits > 0),
            u64::from(o.left),
            u64::from(o.wounds > 0),
            w,
            if passed >= 2 && !self.free_extra_wounds {
                (passed * (passed + 1)) / 2 - 1
            } else {
                0
            },
            u64::from(o.critical_pass),
            u64::from(o.critical_fail),
            u64::from(o.fear_failed),
            u64::from(o.breaks_off),
            u64::from(o.attacker_weapon_breaks),
            u64::from(o.defender_weapon_breaks),
            u64::from(o.knockback),
            u64::from(o.free_attack == 1),
            u64::from(o.free_attack == 2),
            u64::from(o.own_wound_saves),
            u64::from(o.tackle_inches),
            u64::from(o.knocked_down),
        ];
        for (h, v) in m.iter().zip(vals) {
            sink.record(*h, v);
        }
        sink.record(self.wounds[usize::from(o.wounds)], 1);
        sink.record(self.own, u64::from(o.own_wounds));
        for (h, v) in self.best {
            sink.record(h, u64::from(v));
        }
    }
}

const CC: &str = "Chapter 4: Steps for Close Combat";

fn side_params(prefix: &str, who: &str) -> Vec<ParamDecl> {
    let stat = |s: &str, what: &str| {
        ParamDecl::int(format!("{prefix}_{s}"), 0, 30)
            .required()
            .about(format!("{who}'s {what}"))
            .seed("Chapter 2: Characteristic Profiles")
    };
    vec![
        ParamDecl::preset(prefix, "unit", &format!("{prefix}_"))
            .about(format!("{who}'s stat line (a unit preset) or custom"))
            .seed("Chapter 2: Characteristic Profiles"),
        stat("cc", "CC"),
        stat("strength", "Strength"),
        stat("speed", "Speed"),
        stat("body", "Body"),
        stat("will", "Willpower"),
        ParamDecl::int(format!("{prefix}_save"), 0, 30)
            .default("0")
            .about(format!("{who}'s armour bonus to Body"))
            .seed("Step 6: Attacker: Roll to wound"),
        ParamDecl::preset(
            format!("{prefix}_weapon"),
            "cc_weapon",
            &format!("{prefix}_weapon_"),
        )
        .about(format!(
            "{who}'s close-combat weapon (a preset) or custom; none when not given"
        ))
        .seed("Close Combat basics"),
        ParamDecl::int(format!("{prefix}_weapon_cc"), -10, 10)
            .about(format!("{who}'s weapon: the number before the / (custom)"))
            .seed("Weapon Statistics (Stats)")
            .needs_any(format!("{prefix}_weapon"), "axe"),
        ParamDecl::int(format!("{prefix}_weapon_str"), -10, 10)
            .about(format!("{who}'s weapon: the number after the / (custom)"))
            .seed("Weapon Statistics (Stats)")
            .needs_any(format!("{prefix}_weapon"), "axe"),
        ParamDecl::flag(format!("{prefix}_weapon_armour_piercing"))
            .about(format!("{who}'s weapon is armour piercing"))
            .seed("Weapon Statistics (Stats)")
            .needs_any(format!("{prefix}_weapon"), "axe"),
        ParamDecl::flag(format!("{prefix}_weapon_multiple_wounds"))
            .about(format!(
                "{who}'s weapon has Multiple wounds: extra wounds cost no AP"
            ))
            .seed("Weapon effects")
            .needs_any(format!("{prefix}_weapon"), "axe"),
        ParamDecl::flag(format!("{prefix}_weapon_wrap"))
            .about(format!(
                "{who}'s weapon wraps: its opponent cannot parry it, and it cannot parry"
            ))
            .seed("Weapon effects")
            .needs_any(format!("{prefix}_weapon"), "axe"),
        ParamDecl::flag(format!("{prefix}_weapon_lasso"))
            .about(format!(
                "{who}'s weapon is a lasso: any wound knocks the victim over"
            ))
            .seed("Weapon effects")
            .needs_any(format!("{prefix}_weapon"), "axe"),
        ParamDecl::flag(format!("{prefix}_ranged_weapon"))
            .about(format!(
                "{who} carries a ranged weapon (bunt, point blank shot, deflect)"
            ))
            .seed(CC),
    ]
}

/// Parameters shared by the close-combat scenarios: both sides, the
/// situation and the payoff.
pub fn game_params() -> Vec<ParamDecl> {
    let mut p = situation_params();
    p.push(
        ParamDecl::choice("payoff", &["mean_wounds", "p_wound"])
            .default("mean_wounds")
            .about("what the attacker maximises and the defender minimises")
            .seed("Step 4: Defender: Choose defense type"),
    );
    p
}

/// Both sides and the situation (who initiated or charged, fear).
pub fn situation_params() -> Vec<ParamDecl> {
    let mut p = side_params("attacker", "the attacker");
    p.extend(side_params("defender", "the defender"));
    p.extend([
        ParamDecl::flag("initiator")
            .about("the attacker initiated the combat: +1 CC in the first round")
            .seed("Chapter 3: CC attacks - standard"),
        ParamDecl::flag("charged")
            .about("the attacker charged: +2 CC in the first round")
            .seed("Chapter 3: CC attacks - charging"),
        ParamDecl::flag("defender_charged")
            .about("the defender charged in: -2 Body for this, the opponent's first attack")
            .seed("Chapter 3: CC attacks - charging"),
        ParamDecl::choice("attacker_causes", &["nothing", "fear", "pure_horror"])
            .default("nothing")
            .about("fear: the defender tests WILL against 6 or its CC is halved for the first attack; pure horror: with WILL halved")
            .seed("Chapter 6: Fear; Pure horror"),
    ]);
    p
}

/// Parameters of the close-combat scenario.
pub fn params() -> Vec<ParamDecl> {
    let mut p = game_params();
    p.extend([
        ParamDecl::choice("attack", ATTACK_WORDS)
            .default("weapon")
            .about("the attack type (Step 2)")
            .seed("Step 2: Attacker: Choose an attack"),
        ParamDecl::choice("defence", DEFENCE_WORDS)
            .default("passive")
            .about("passive, or the active defence type (Steps 1 and 4)")
            .seed("Step 4: Defender: Choose defense type"),
    ]);
    p
}

fn fighter(p: &Params, prefix: &str) -> Result<Fighter, ParamError> {
    let int =
        |s: &str| -> Result<i32, ParamError> { Ok(p.need_int(&format!("{prefix}_{s}"))? as i32) };
    let wname = format!("{prefix}_weapon");
    let has_weapon = p.word(&wname)?.is_some();
    let weapon = if has_weapon {
        Some(CcWeapon {
            cc: p.need_int(&format!("{wname}_cc"))? as i32,
            strength: p.need_int(&format!("{wname}_str"))? as i32,
            armour_piercing: p.flag(&format!("{wname}_armour_piercing"))?,
            multiple_wounds: p.flag(&format!("{wname}_multiple_wounds"))?,
            wrap: p.flag(&format!("{wname}_wrap"))?,
            lasso: p.flag(&format!("{wname}_lasso"))?,
        })
    } else {
        for s in [
            "cc",
            "str",
            "armour_piercing",
            "multiple_wounds",
            "wrap",
            "lasso",
        ] {
            let n = format!("{wname}_{s}");
            if p.has(&n) {
                return Err(ParamError::new(
                    n,
                    format!("set {wname} (a preset, or custom) to give a weapon"),
                ));
            }
        }
        None
    };
    Ok(Fighter {
        cc: int("cc")?,
        strength: int("strength")?,
        speed: int("speed")?,
        body: int("body")?,
        save: p.need_int(&format!("{prefix}_save"))? as i32,
        will: int("will")?,
        weapon,
        ranged_weapon: p.flag(&format!("{prefix}_ranged_weapon"))?,
    })
}

/// The fight of checked parameters.
pub fn fight_of(p: &Params, v: &Params) -> Result<Fight, ParamError> {
    let (reading, critical) = (super::seven_plus(v)?, super::critical(v)?);
    if p.flag("initiator")? && p.flag("charged")? {
        return Err(ParamError::new(
            "charged",
            "a charge is the attacker's way of initiating (+2 CC, not +1 and +2): set initiator or charged, not both",
        ));
    }
    Ok(Fight {
        attacker: fighter(p, "attacker")?,
        defender: fighter(p, "defender")?,
        initiator: p.flag("initiator")?,
        charged: p.flag("charged")?,
        defender_charged: p.flag("defender_charged")?,
        dread: match p.need_word("attacker_causes")?.as_str() {
            "fear" => Dread::Fear,
            "pure_horror" => Dread::PureHorror,
            _ => Dread::None,
        },
        reading,
        critical,
        deflect_break: deflect_break(v, p.flag("defender_ranged_weapon")?)?,
        counter_roll: CounterRoll::Plain,
    })
}

/// The counter-attack variant, read only where a counter attack can be
/// rolled, so only those runs name it.
pub fn counter_roll(v: &Params, can_counter: bool) -> Result<CounterRoll, ParamError> {
    Ok(if can_counter && v.need_word("counter_roll")? == "dodge" {
        CounterRoll::Dodge
    } else {
        CounterRoll::Plain
    })
}

/// The deflect variant, read only where the defender could deflect (it
/// has a ranged weapon), so only those runs name it.
pub fn deflect_break(v: &Params, can_deflect: bool) -> Result<DeflectBreak, ParamError> {
    Ok(match v.word("deflect_break")?.as_deref() {
        Some("example") if can_deflect => DeflectBreak::Example,
        _ => DeflectBreak::OnSix,
    })
}

/// Whether the payoff is P(wound) rather than expected wounds.
pub fn payoff_is_p(p: &Params) -> Result<bool, ParamError> {
    Ok(p.need_word("payoff")? == "p_wound")
}

/// Builds the close-combat model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let mut fight = fight_of(p, v)?;
    let word = p.need_word("attack")?;
    let attack = ATTACKS
        .iter()
        .find(|x| x.1 == word)
        .map_or(Attack::Weapon, |x| x.0);
    let word = p.need_word("defence")?;
    let defence = DEFENCES
        .iter()
        .find(|x| x.1 == word)
        .map_or(Defence::Passive, |x| x.0);
    fight.counter_roll = counter_roll(v, defence == Defence::Counter)?;
    if let Some(why) = unavailable(&fight, attack, Defence::Passive) {
        return Err(ParamError::new("attack", why));
    }
    let (attacks, defences) = choices(&fight);
    if !defences.iter().any(|(d, _)| *d == defence) {
        let why = ATTACKS
            .iter()
            .find_map(|(a, _)| unavailable(&fight, *a, defence))
            .unwrap_or("the defender cannot use this defence");
        return Err(ParamError::new("defence", why));
    }
    let by_p = payoff_is_p(p)?;
    let pay = |a, d| {
        let (m, q) = Exchange {
            fight,
            attack: a,
            defence: played(&fight, a, d),
        }
        .payoff();
        if by_p { q } else { m }
    };
    let here = pay(attack, defence);
    let best_def = defences
        .iter()
        .all(|(d, _)| pay(attack, *d) >= here - 1e-12);
    let best_att = attacks
        .iter()
        .all(|(a, _)| pay(*a, defence) <= here + 1e-12);
    let defence = played(&fight, attack, defence);
    let ex = Exchange {
        fight,
        attack,
        defence,
    };
    let n = fight.numbers(attack, defence, false);
    let max_w = 2 * n.att_str.clamp(0, 60).min(n.att_cc.clamp(0, 60));
    let mut list = MetricList::new();
    let m: Vec<Metric> = METRICS[..17].iter().map(|d| list.add(d)).collect();
    let wounds = list.family(&METRICS[17], 0..=max_w.max(0));
    let own = list.add(&OWN_WOUNDS);
    let best = [
        (list.add(&BEST[0]), best_def),
        (list.add(&BEST[1]), best_att),
    ];
    let rule = CloseRule {
        free_extra_wounds: ex.weapon_effect(|w| w.multiple_wounds),
        ex,
        list,
        m,
        wounds,
        own,
        best,
    };
    Ok(Box::new(super::fast::CloseModel::new(rule, &ex)))
}

/// Conformance points.
pub const TEST_POINTS: &[&[(&str, &str)]] = &[
    &[
        ("attacker", "average_joe"),
        ("defender", "average_joe"),
        ("attack", "kick"),
        ("defence", "dodge"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_strength", "3"),
        ("attacker_weapon", "axe"),
        ("defender", "average_joe"),
        ("defender_save", "4"),
        ("defender_weapon", "knife"),
        ("attack", "weapon"),
        ("defence", "parry"),
        ("charged", "true"),
        ("attacker_causes", "fear"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("defender_ranged_weapon", "true"),
        ("attack", "bunt"),
        ("defence", "deflect"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("defender", "average_joe"),
        ("defender_cc", "3"),
        ("attack", "shove"),
        ("defence", "counter_attack"),
        ("attacker_causes", "pure_horror"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_strength", "3"),
        ("attacker_weapon", "custom"),
        ("attacker_weapon_cc", "0"),
        ("attacker_weapon_str", "1"),
        ("attacker_weapon_multiple_wounds", "true"),
        ("attacker_weapon_lasso", "true"),
        ("attacker_weapon_wrap", "true"),
        ("defender", "average_joe"),
        ("defender_weapon", "knife"),
        ("attack", "weapon"),
        ("defence", "dodge"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("attack", "point_blank_shot"),
        ("defence", "break_off"),
        ("defender_charged", "true"),
    ],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::krygothic::ranged::tests::Script;

    fn joe() -> Fighter {
        Fighter {
            cc: 2,
            strength: 2,
            speed: 3,
            body: 2,
            save: 0,
            will: 3,
            weapon: None,
            ranged_weapon: false,
        }
    }

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

    fn fight(attacker: Fighter, defender: Fighter) -> Fight {
        Fight {
            attacker,
            defender,
            initiator: false,
            charged: false,
            defender_charged: false,
            dread: Dread::None,
            reading: Reading::Table,
            critical: Critical::ThreeSixes,
            deflect_break: DeflectBreak::OnSix,
            counter_roll: CounterRoll::Plain,
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

    /// Step 6: "rolls it against a target of 6 (defender has body 2, and a
    /// flack jacket that confers +4 to his body stat). He rolls a 6 and
    /// strikes the target for 1 wound." And the knife and axe.
    #[test]
    fn wound_example_and_weapons() {
        let def = Fighter { save: 4, ..joe() };
        let f = fight(joe(), def);
        assert_eq!(f.numbers(Attack::Kick, Defence::Passive, false).to_wound, 6);
        assert_eq!(
            count_passes(&mut Script(vec![6, 2], 0), 1, 6, Reading::Table),
            1
        );
        // "a knife is +2cc/-1str ... the user has CC 4, Str 3. This means
        // add 2 to the units CC stat, and subtract 1 from the units Strength"
        let knife = CcWeapon {
            cc: 2,
            strength: -1,
            armour_piercing: false,
            ..CcWeapon::default()
        };
        let att = Fighter {
            cc: 4,
            strength: 3,
            weapon: Some(knife),
            ..joe()
        };
        let n = fight(att, def).numbers(Attack::Weapon, Defence::Passive, false);
        assert_eq!((n.att_cc, n.att_str, n.to_wound), (6, 2, 6));
        let axe = CcWeapon {
            cc: -1,
            strength: 2,
            armour_piercing: true,
            ..CcWeapon::default()
        };
        let att = Fighter {
            weapon: Some(axe),
            ..att
        };
        let n = fight(att, def).numbers(Attack::Weapon, Defence::Passive, false);
        assert_eq!((n.att_cc, n.att_str, n.to_wound), (3, 5, 2 + 4 - 2));
        // head butt -1 Body; a charging defender -2 Body
        let mut f = fight(joe(), def);
        f.defender_charged = true;
        assert_eq!(
            f.numbers(Attack::HeadButt, Defence::Passive, false)
                .to_wound,
            2 + 4 - 3
        );
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
