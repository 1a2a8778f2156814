//! The queue from the forwarding tasks to the worker: bounded, a send never waits, and a send
//! does not wake the worker while it is busy or about to look again.
//!
//! A channel whose receiver blocks in `recv` makes every send a wake-up (a futex call, a
//! context switch) on the forwarding task's thread: four per call, a tenth of the time the tap
//! spent on a call in the profile. Here the worker drains the queue in batches: when it finds
//! the queue empty it sleeps [`NAP`] and looks again, and only after [`NAPS`] empty looks in a
//! row (the traffic has paused) does it sleep until a send wakes it ([`Sender::send`] wakes it
//! then, once). So a burst of calls costs no wake-up at all, and an idle tap no CPU.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering, fence};
use std::sync::mpsc::{Receiver as Rx, SyncSender, TryRecvError, TrySendError, sync_channel};
use std::thread::Thread;
use std::time::Duration;

/// How long the worker sleeps when it finds the queue empty while traffic flows.
const NAP: Duration = Duration::from_millis(1);

/// How many empty looks in a row before the worker sleeps until woken.
const NAPS: u32 = 20;

/// How long the worker sleeps at most once idle (it is woken by the next send, or by
/// [`Receiver::wake`]; the bound is a safety net, not the mechanism).
const IDLE: Duration = Duration::from_millis(200);

/// The state shared by the senders and the receiver.
struct Shared {
    /// The worker sleeps until woken (it has told the senders so).
    idle: AtomicBool,
    /// The worker's thread, once it has started.
    worker: std::sync::OnceLock<Thread>,
}

/// The sending side, cloned into every observer.
pub(super) struct Sender<T> {
    /// Always `Some` but in `drop`.
    tx: Option<SyncSender<T>>,
    shared: Arc<Shared>,
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Sender {
            tx: self.tx.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<T> Drop for Sender<T> {
    /// Wakes the worker after the sender is gone: when it was the last, the worker finds
    /// the queue closed at once rather than at the end of its sleep.
    fn drop(&mut self) {
        drop(self.tx.take());
        if let Some(t) = self.shared.worker.get() {
            t.unpark();
        }
    }
}

/// Why a send did not queue its item.
pub(super) enum SendError {
    /// The queue is full.
    Full,
    /// The receiver has gone.
    Gone,
}

impl<T> Sender<T> {
    /// Queues `item` without waiting; wakes the worker only when it sleeps until woken.
    pub(super) fn send(&self, item: T) -> Result<(), SendError> {
        let Some(tx) = &self.tx else {
            return Err(SendError::Gone);
        };
        match tx.try_send(item) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(SendError::Full),
            Err(TrySendError::Disconnected(_)) => return Err(SendError::Gone),
        }
        // The item is queued before the flag is read (the receiver sets the flag before it
        // looks at the queue): one of the two sees the other.
        fence(Ordering::SeqCst);
        if self.shared.idle.load(Ordering::SeqCst)
            && self.shared.idle.swap(false, Ordering::SeqCst)
            && let Some(t) = self.shared.worker.get()
        {
            t.unpark();
        }
        Ok(())
    }
}

/// The receiving side, owned by the worker's thread.
pub(super) struct Receiver<T> {
    rx: Rx<T>,
    shared: Arc<Shared>,
    empty: u32,
}

impl<T> Receiver<T> {
    /// The next item, waiting as described in the module's documentation; `None` once every
    /// sender has gone and the queue is empty. Called on the worker's thread.
    pub(super) fn recv(&mut self) -> Option<T> {
        let _ = self.shared.worker.set(std::thread::current());
        loop {
            match self.rx.try_recv() {
                Ok(item) => {
                    self.empty = 0;
                    return Some(item);
                }
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => {}
            }
            self.empty = self.empty.saturating_add(1);
            if self.empty <= NAPS {
                std::thread::park_timeout(NAP);
                continue;
            }
            // Tell the senders to wake us, then look once more: a send that came before the
            // flag was set is found here, one after it wakes us.
            self.shared.idle.store(true, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            match self.rx.try_recv() {
                Ok(item) => {
                    self.shared.idle.store(false, Ordering::SeqCst);
                    self.empty = 0;
                    return Some(item);
                }
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::thread::park_timeout(IDLE),
            }
            self.shared.idle.store(false, Ordering::SeqCst);
        }
    }
}

impl<T> Iterator for Receiver<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.recv()
    }
}

/// A queue of at most `bound` items.
pub(super) fn queue<T>(bound: usize) -> (Sender<T>, Receiver<T>) {
    let (tx, rx) = sync_channel(bound);
    let shared = Arc::new(Shared {
        idle: AtomicBool::new(false),
        worker: std::sync::OnceLock::new(),
    });
    (
        Sender {
            tx: Some(tx),
            shared: shared.clone(),
        },
        Receiver {
            rx,
            shared,
            empty: 0,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items sent from another thread arrive in order, whether the worker naps, sleeps until
    /// woken, or is woken by the end of the senders; a full queue refuses without waiting.
    #[test]
    fn sends_arrive_and_the_end_is_seen() {
        let (tx, mut rx) = queue::<u32>(4);
        let t = tx.clone();
        let sender = std::thread::spawn(move || {
            for i in 0..3 {
                assert!(t.send(i).is_ok());
            }
            // Long enough for the receiver to go idle: the next send must wake it.
            std::thread::sleep(NAP * (NAPS + 10));
            assert!(t.send(3).is_ok());
        });
        let got: Vec<u32> = (0..4).filter_map(|_| rx.recv()).collect();
        assert_eq!(got, [0, 1, 2, 3]);
        sender.join().unwrap();
        for i in 0..4 {
            assert!(tx.send(i).is_ok());
        }
        assert!(matches!(tx.send(9), Err(SendError::Full)));
        drop(tx);
        assert_eq!(rx.by_ref().count(), 4);
        assert!(rx.recv().is_none());
    }
}
