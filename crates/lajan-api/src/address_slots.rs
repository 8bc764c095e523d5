//! How much one client address holds at once: open connections (by the peer's address), or,
//! behind a trusted proxy whose connections carry many clients, requests being answered (by the
//! forwarded address). Without it one client holding a socket open per slot, one slow request a
//! minute each, held every connection the server takes.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// What each address holds now; an address holding nothing has no entry, so the map is never
/// larger than what is open.
#[derive(Debug)]
pub struct AddressSlots {
    limit: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

impl AddressSlots {
    /// `limit` at a time per address (0: no limit).
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(AddressSlots { limit, held: Mutex::default() })
    }

    /// One more for `ip`, held until the guard drops; `None` when it already holds the limit.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        if self.limit == 0 {
            return Some(AddressSlot { slots: None, ip });
        }
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(ip).or_default();
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(AddressSlot { slots: Some(self.clone()), ip })
    }

    #[cfg(test)]
    fn held(&self, ip: IpAddr) -> usize {
        self.held.lock().unwrap_or_else(PoisonError::into_inner).get(&ip).copied().unwrap_or(0)
    }
}

/// One connection or request of an address; gives its place back when dropped.
#[derive(Debug)]
pub struct AddressSlot {
    slots: Option<Arc<AddressSlots>>,
    ip: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let Some(slots) = &self.slots else { return };
        let mut held = slots.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_its_limit_and_gets_each_place_back() {
        let slots = AddressSlots::new(2);
        let (a, b): (IpAddr, IpAddr) = ("198.51.100.1".parse().unwrap(), "198.51.100.2".parse().unwrap());
        let first = slots.take(a).unwrap();
        let _second = slots.take(a).unwrap();
        assert!(slots.take(a).is_none(), "a third");
        assert!(slots.take(b).is_some(), "another address");
        drop(first);
        assert!(slots.take(a).is_some(), "a place given back");
        assert_eq!(slots.held(b), 0, "an address holding nothing is forgotten");
        assert!(AddressSlots::new(0).take(a).is_some(), "0: no limit");
    }
}
