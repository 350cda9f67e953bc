//! The parameter groups several scenarios share: one firer's shot (the
//! weapon, the firer, the target: `shooting` and `squad_under_fire` read
//! it whole) and what kind of figure takes the hits (`shooting`,
//! `effect_of_hit` and both sides of `close_combat`, each under its own
//! prefix), with the seed sections their parameters quote.

use super::chart::{AREAS, ApCost, Armour, RangedRow, parse_ranged_row};
use super::fire::{Firer, Modifiers, Toughness};
use crate::systems::{Given, Opt, ParamError};

const CHART: &str = "RANGED COMBAT WEAPONS FACTOR CHART";
const MODIFIERS: &str = "RANGED TO HIT MODIFIERS";
/// The Effect of Hit Chart, which the scenarios' own parameters quote too.
pub(super) const EFFECT: &str = "EFFECT OF HIT CHART";
const AP: &str = "ACTION POINTS";

crate::param_struct! {
    /// The weapon: a chart row by name or a row of one's own.
    pub struct WeaponParams {
        weapon: Opt<String> = preset("weapon", "weapon_")
            .about("a row of the chart by name, or custom (then give weapon_row)")
            .seed(CHART),
        weapon_row: String = text("24 | 8 | 6 | 4 | 1 | 1/2 | jam")
            .required()
            .about("the weapon's chart row: max range | std | storm | power | tank | AP | effect of a 20; blasts 12/8, lock-on 18/8 L-10, X = no chance")
            .seed(CHART),
        weapon_area: String = choice(AREAS)
            .default("none")
            .about("what the weapon covers: a small or large blast, the flamer's template, or none")
            .seed("WEAPONS FACTOR CHART (explanation): blast radius counters"),
        weapon_heavy: Given<bool> = flag()
            .about("a heavy weapon (the presets say; a row of one's own left out: heavy when it costs 2 AP): no wounded human fires it, nor a firer assaulted before its turn; a 1-AP heavy weapon's jam only misses the rest of the turn")
            .seed("WEAPONS FACTOR CHART (explanation); ACTION POINTS; ASSAULT"),
        weapon_tripod: bool = flag()
            .about("a wheeled or tripod heavy weapon: 1 AP to set up after moving (\"So normally the best a crew can do is to move 2AP's and set it up ready to fire next turn\")")
            .seed("MOVEMENT"),
    }
}

crate::param_struct! {
    /// The firer's action points and ranged modifiers.
    pub struct FirerParams {
        range: i64 = int(0, 200)
            .default("1")
            .about("inches to the target (1/2 AP weapons: 1 AP up to half range)")
            .seed(CHART),
        firer_ap: i64 = int(1, 6)
            .default("3")
            .about("the firer's AP a turn: 3; vehicles, sentinels, Necron destroyers 4; Veteran Hero +1")
            .seed(AP),
        firing_ap: Given<i64> = int(1, 2)
            .default("2")
            .about("AP spent firing (no more than 2); left out: 2, or what moving leaves; given, more than moving leaves is refused")
            .seed(AP),
        moved_d6: i64 = int(0, 4)
            .default("0")
            .about("AP spent moving first, 1D6\" each: -1 to hit each")
            .seed(MODIFIERS),
        firer_wounded: bool = flag()
            .about("-2 to hit, and wounded lose 1 AP; a wounded human cannot fire a heavy weapon")
            .seed(MODIFIERS),
        firer_human: bool = flag()
            .default("true")
            .about("the firer is human (false: a Necron, Tyranid or war droid): \"No wounded human can fire or help fire a heavy weapon\"")
            .seed(AP),
        firer_in_vehicle: bool = flag()
            .about("firing from a vehicle: don't count the first D6 of movement")
            .seed(MODIFIERS),
        marksman: bool = flag().about("+2 to hit").seed("SPECIAL SKILLS"),
        shoot_on_the_move: bool = flag()
            .about("no modifiers for either firer or target moving")
            .seed("SPECIAL SKILLS"),
    }
}

crate::param_struct! {
    /// The target's armour, cover and size.
    pub struct TargetParams {
        armour: Armour = choice(Armour::WORDS)
            .required()
            .about("the target's armour class: std 5+, storm 4+ (Tau), power 3+ (Necrons, Chimera), tank 2+")
            .seed(CHART),
        target_cover: String = choice(&["none", "moving", "cover"])
            .default("none")
            .about("target moving over 3\" or under cover: -2 (Shoot on the Move ignores moving)")
            .seed(MODIFIERS),
        target_camoline: bool = flag()
            .about("target in stealth Camoline: -1")
            .seed(MODIFIERS),
        target_size: Opt<String> = choice(&["normal", "large", "tank"])
            .about("large target +1, tanks +2; left out: +2 against tank armour or a vehicle target (\"targets like Tanks get automatic +2 to hit them as large targets\"; the Chimera APC \"+2 large\"), else none; a Sentinel walker \"+1 bit large\": large")
            .seed(MODIFIERS),
    }
}

crate::param_struct! {
    /// One firer's shot at a target: the weapon, the firer, the target
    /// (the shooting and squad scenarios' common parameters).
    pub struct ShotParams {
        ..weapon: WeaponParams,
        ..firer: FirerParams,
        ..target: TargetParams,
    }
}

impl ShotParams {
    /// The weapon row given.
    pub fn weapon_row(&self) -> Result<RangedRow, ParamError> {
        parse_ranged_row(
            &self.weapon.weapon_row,
            crate::param_name!(WeaponParams.weapon_row),
        )
    }

    /// Whether the weapon is heavy: as given (every preset says), else a
    /// row of one's own is heavy when it costs 2 AP ("Heavy weapons which
    /// are large weapons which normally need 2AP's to fire").
    pub fn weapon_heavy(&self, row: &RangedRow) -> bool {
        self.weapon
            .weapon_heavy
            .given_value()
            .unwrap_or(row.ap == ApCost::Two)
    }

    /// The firer given.
    pub fn firer(&self) -> Result<Firer, ParamError> {
        let f = &self.firer;
        let row = self.weapon_row()?;
        let wounded = f.firer_wounded;
        let heavy = self.weapon_heavy(&row);
        // "No wounded human can fire or help fire a heavy weapon"; "1
        // uninjured Human crew member is required to fire a heavy weapon of any
        // sort, including hand held ones. i.e. injured can't use heavy weapons."
        if wounded && heavy && f.firer_human {
            return Err(ParamError::new(
                crate::param_name!(FirerParams.firer_wounded),
                "\"No wounded human can fire or help fire a heavy weapon\": a wounded human firer with a heavy weapon cannot fire (firer_human = false for a Necron, Tyranid or war droid)",
            ));
        }
        let ap = f.firer_ap as u32;
        let turn_ap = ap.saturating_sub(u32::from(wounded));
        let moved_d6 = f.moved_d6 as u32;
        // "Wheeled/tripod heavy weapons cost 1AP to set up after moving, and
        // normally 2AP's to fire"
        if self.weapon.weapon_tripod && !heavy {
            return Err(ParamError::new(
                crate::param_name!(WeaponParams.weapon_tripod),
                "\"Wheeled/tripod heavy weapons cost 1AP to set up after moving\": a tripod weapon is a heavy weapon (weapon_heavy = true, or a heavy row)",
            ));
        }
        let set_up = u32::from(self.weapon.weapon_tripod && moved_d6 > 0);
        let firing_ap = f.firing_ap.value as u32;
        // "all others must be used moving": AP given to firing that moving has
        // already spent are refused, not cut (left out, firing_ap takes what
        // is left, as before)
        let left = turn_ap.saturating_sub(moved_d6 + set_up);
        if f.firing_ap.given && moved_d6 + set_up <= turn_ap && firing_ap > left {
            return Err(ParamError::new(
                crate::param_name!(FirerParams.firing_ap),
                format!(
                    "{firing_ap} AP spent firing, but moving {moved_d6} D6{} leaves {left} of the firer's {turn_ap} AP{}: set firing_ap to at most {left} or move less",
                    if set_up > 0 {
                        " and setting up the tripod (1 AP)"
                    } else {
                        ""
                    },
                    if wounded { " (wounded: 1 AP less)" } else { "" }
                ),
            ));
        }
        Ok(Firer {
            row,
            range: f.range as u32,
            ap: turn_ap,
            moved_d6,
            firing_ap,
            heavy,
            set_up,
        })
    }

    /// The ranged modifiers given; `vehicle_target`: the target is said to
    /// be a vehicle (only `shooting` has vehicle targets: a squad is of
    /// figures).
    pub fn modifiers(&self, vehicle_target: bool) -> Modifiers {
        let cover = self.target.target_cover.as_str();
        Modifiers {
            firer_wounded: self.firer.firer_wounded,
            moved_d6: self.firer.moved_d6 as u32,
            from_vehicle: self.firer.firer_in_vehicle,
            camoline: self.target.target_camoline,
            target_moving: cover == "moving",
            target_cover: cover == "cover",
            large: match self.target_size(vehicle_target) {
                "large" => 1,
                "tank" => 2,
                _ => 0,
            },
            marksman: self.firer.marksman,
            shoot_on_the_move: self.firer.shoot_on_the_move,
        }
    }

    /// The target's size: as given, or, left out, a tank's for a target in
    /// tank armour or said to be a vehicle ("Remember targets like Tanks get
    /// automatic +2 to hit them as large targets"; the Vehicle characteristics
    /// table gives the Chimera APC "+2 large" in "Power" armour and the Big
    /// Tank "+2 large", "Power to rear/top"), else normal. A walker says its
    /// own ("Sentinel Walker ... +1 bit large": `target_size = "large"`).
    pub fn target_size(&self, vehicle_target: bool) -> &str {
        match &self.target.target_size.value {
            Some(size) => size,
            None if self.target.armour == Armour::Tank => "tank",
            None if vehicle_target => "tank",
            None => "normal",
        }
    }
}

crate::param_struct! {
    /// What kind of figure takes the hits (under a prefix: `target_`, or a
    /// close combat side's).
    pub struct ToughnessParams {
        kind: String = choice(&["trooper", "hero"])
            .default("trooper")
            .about("common trooper or Hero (a multi-wound character; scarab swarms count as Hero)")
            .seed(EFFECT),
        ignores_duck_backs: bool = flag()
            .about("Necrons, Tyranids and war droids are not affected by Duck Backs")
            .seed("EFFECTS OF HIT"),
        enhanced_nervous_system: bool = flag()
            .about("ignores Duck Backs and the first wound; a 2nd wound still kills")
            .seed("SPECIAL SKILLS"),
    }
}

impl ToughnessParams {
    /// The toughness given.
    pub fn toughness(&self) -> Toughness {
        Toughness {
            hero: self.kind == "hero",
            ignores_duck_backs: self.ignores_duck_backs,
            enhanced_nervous_system: self.enhanced_nervous_system,
        }
    }
}
