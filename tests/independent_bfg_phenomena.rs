//! Battlefleet Gothic celestial phenomena (seed `004_d4c8740a73a9c193.txt`):
//! gas and dust clouds (the Eldar check), fighting in low orbit (the 4+ to
//! fire lances and nova cannons), battlezone generation. Exact values
//! derived by hand from the seed text, or by brute force over raw dice
//! here, never from the rule code, compared with krunch's exact evaluator.
//! Each test quotes the rule it reads.

#[path = "common/independent.rs"]
mod independent;

use independent::{binom, check, check_with, prob, seed_text, squash};

const SYS: &str = "bfg";
const SEED: &str = "004_d4c8740a73a9c193.txt";

/// The seed holds `sentence` (whitespace squashed), when the seed is here.
fn quoted(sentence: &str) {
    if let Some(text) = seed_text(SEED) {
        assert!(
            squash(&text).contains(&squash(sentence)),
            "the seed does not say: {sentence}"
        );
    }
}

// ---------------------------------------------------------------- gas clouds

/// GAS AND DUST CLOUDS: "Eldar and their kin can make a leadership check to
/// ignore all effects of gas clouds, and their escorts may re-roll this
/// result for free. If passed, it will take no damage nor suffer any
/// effects of being in contact with it." One Eldar cruiser at Leadership
/// 7: 2D6 <= 7 is 21/36 = 7/12, so it stays under the cloud 5/12. An
/// escort at 7 fails twice: (5/12)^2 = 25/144.
#[test]
fn gas_cloud_one_ship() {
    quoted(
        "Eldar and their kin can make a leadership check to ignore all effects of gas clouds, and their escorts may re-roll this result for free.",
    );
    let pass = prob(2, 6, |r| r[0] + r[1] <= 7);
    assert!((pass - 7.0 / 12.0).abs() < 1e-15);
    check(
        SYS,
        "gas_cloud",
        &[("leadership", "7")],
        "p_ignores",
        7.0 / 12.0,
    );
    check(
        SYS,
        "gas_cloud",
        &[("leadership", "7")],
        "mean_under_cloud",
        5.0 / 12.0,
    );
    // the escort's free re-roll, by brute force over both tries' 4 dice
    let escort_fails = prob(4, 6, |r| r[0] + r[1] > 7 && r[2] + r[3] > 7);
    assert!((escort_fails - 25.0 / 144.0).abs() < 1e-15);
    let escort = [("leadership", "7"), ("escort", "true")];
    check(SYS, "gas_cloud", &escort, "p_under_fire", 25.0 / 144.0);
}

/// "To ships in base contact, gas and dust clouds have the same effect as
/// a single Blast marker": a squadron of four Eldar escorts at Leadership
/// 8, each checking for itself (the default `each_ship`): a ship stays
/// under with q = (10/36)^2 = 25/324, so the number under is
/// Binomial(4, 25/324); the squadron is under fire ("even if only some of
/// the ships in a squadron have Blast markers in base contact") with
/// 1 - (299/324)^4. One check for the squadron (`squadron`): all four
/// under with 25/324, none otherwise.
#[test]
fn gas_cloud_escort_squadron() {
    quoted(
        "To ships in base contact, gas and dust clouds have the same effect as a single Blast marker in all respects (ie, on firing, movement, shields, Leadership and ordnance).",
    );
    quoted(
        "Normal Command check modifiers for enemy contacts and for being under fire apply to squadrons, even if only some of the ships in a squadron have Blast markers in base contact.",
    );
    let pairs = [("leadership", "8"), ("ships", "4"), ("escort", "true")];
    let q = 25.0 / 324.0;
    for k in 0..=4u64 {
        let metric = format!("under_cloud={k}");
        check(SYS, "gas_cloud", &pairs, &metric, binom(4, k, q));
    }
    check(SYS, "gas_cloud", &pairs, "mean_under_cloud", 4.0 * q);
    check(
        SYS,
        "gas_cloud",
        &pairs,
        "p_under_fire",
        1.0 - (1.0 - q).powi(4),
    );
    let one = [("gas_check", "squadron")];
    check_with(SYS, "gas_cloud", &pairs, &one, "under_cloud=4", q);
    check_with(SYS, "gas_cloud", &pairs, &one, "under_cloud=0", 1.0 - q);
    check_with(SYS, "gas_cloud", &pairs, &one, "p_under_fire", q);
    check_with(SYS, "gas_cloud", &pairs, &one, "mean_under_cloud", 4.0 * q);
}

/// Leadership past the dice: at 12 an Eldar ship always passes, at 1 it
/// never does (2D6 is at least 2), escort or not.
#[test]
fn gas_cloud_leadership_limits() {
    let high = [("leadership", "12"), ("ships", "6")];
    check(SYS, "gas_cloud", &high, "p_all_ignore", 1.0);
    let low = [("leadership", "1"), ("ships", "2"), ("escort", "true")];
    check(SYS, "gas_cloud", &low, "under_cloud=2", 1.0);
}

// ----------------------------------------------------------------- low orbit

/// FIGHTING IN LOW ORBIT: "lances and nova cannons require a 4+ roll to
/// fire". Three lances, each its own D6 (the default `each_lance`): the
/// lances that fire are Binomial(3, 1/2): 1/8, 3/8, 3/8, 1/8, checked
/// against every roll of three dice.
#[test]
fn low_orbit_three_lances() {
    quoted(
        "all firepower shooting in low orbit suffers one column shift to the right, lances and nova cannons require a 4+ roll to fire and torpedoes may not be fired by ships at all.",
    );
    let pairs = [("weapon", "lances"), ("strength", "3")];
    for k in 0..=3usize {
        let by_dice = prob(3, 6, |r| r.iter().filter(|&&x| x >= 4).count() == k);
        assert!((by_dice - binom(3, k as u64, 0.5)).abs() < 1e-15);
        check(SYS, "low_orbit", &pairs, &format!("fired={k}"), by_dice);
    }
    check(SYS, "low_orbit", &pairs, "mean_fired", 1.5);
    check(SYS, "low_orbit", &pairs, "p_fires", 7.0 / 8.0);
    check(SYS, "low_orbit", &pairs, "p_all_fire", 1.0 / 8.0);
}

/// One 4+ for the weapon (`each_weapon`): three lances all fire or none,
/// 1/2 each; the mean is the same 3/2. A nova cannon is one shot: 1/2.
#[test]
fn low_orbit_one_roll_and_nova_cannon() {
    let pairs = [("weapon", "lances"), ("strength", "3")];
    let one = [("orbit_fire_roll", "each_weapon")];
    check_with(SYS, "low_orbit", &pairs, &one, "fired=3", 0.5);
    check_with(SYS, "low_orbit", &pairs, &one, "fired=1", 0.0);
    check_with(SYS, "low_orbit", &pairs, &one, "mean_fired", 1.5);
    let nova = [("weapon", "nova_cannon")];
    check(SYS, "low_orbit", &nova, "p_fires", 0.5);
    check(SYS, "low_orbit", &nova, "mean_fired", 0.5);
}
