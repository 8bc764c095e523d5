//! Console users: who may sign in to an organization's console, with which role, and the
//! Argon2id hash of their password (hashed and checked above the store).

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::access::AccessChange;
use lajan_domain::user::User;
use lajan_domain::{Actor, Timestamp};

#[async_trait]
pub trait UserStore: Send + Sync {
    /// `Conflict` when a user has that email already; `NotFound` when the organization does not
    /// exist. Recorded in the access trail as made `by`.
    async fn create_user(&self, user: &User, password_hash: &str, by: &Actor) -> StoreResult<()>;

    /// Users of `org_id` (every organization when `None`), oldest first.
    async fn list_users(&self, org_id: Option<&str>) -> StoreResult<Vec<User>>;

    /// The user with this (normalized) email, and their password hash.
    async fn user_by_email(&self, email: &str) -> StoreResult<Option<(User, String)>>;

    /// Disables the user with this email (disabling twice keeps, and records, the first time);
    /// `NotFound` for an unknown email.
    async fn disable_user(&self, email: &str, at: Timestamp, by: &Actor) -> StoreResult<User>;

    /// Sets the console language the user chose (`None`: their browser's); `NotFound` for an
    /// unknown user.
    async fn set_user_language(&self, user_id: &str, language: Option<&str>) -> StoreResult<()>;

    /// Stores the password the user chose themself, as `password_hash`, and clears
    /// `must_set_password`; `NotFound` for an unknown user.
    async fn set_own_password(&self, user_id: &str, password_hash: &str) -> StoreResult<()>;

    /// The organization's access trail (users and API keys created or disabled), newest first.
    async fn list_access_changes(&self, org_id: &str, limit: u32) -> StoreResult<Vec<AccessChange>>;
}
