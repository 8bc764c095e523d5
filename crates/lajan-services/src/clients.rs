//! Client use cases: create, update and archive, each with its event. A verification's answer
//! is sealed (Argon2id, as passwords are) before anything is stored.

use crate::events::client_event;
use crate::users::slow_hash;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::client::{Client, ClientInput, ClientPatchInput};
use lajan_domain::id::IdKind;
use lajan_domain::verification::{Verification, VerificationAnswer};
use lajan_domain::{Tenant, Timestamp};
use lajan_store::IdempotentResponse;

impl Services {
    /// Validates every field at once and records the client with `client.created`; one given
    /// no language speaks the settings' default.
    pub async fn create_client(
        &self,
        tenant: &Tenant,
        input: ClientInput,
        idempotency: Option<IdempotentResponse<'_, Client>>,
    ) -> ServiceResult<Client> {
        let language_given = input.language.is_some();
        let (mut client, answer) = input.into_client(IdKind::Client.generate(), Timestamp::now())?;
        if !language_given {
            client.language = self.store.get_settings(tenant).await?.receivers.default_client_language;
        }
        client.verification = seal(answer).await?;
        self.store.create_client(tenant, &client, &client_event("client.created")(&client), idempotency).await?;
        Ok(client)
    }

    /// Applies a patch; `client.updated` only when something changed.
    pub async fn update_client(&self, tenant: &Tenant, id: &str, patch: ClientPatchInput) -> ServiceResult<Client> {
        let (mut patch, answer) = patch.parse(Timestamp::now())?;
        if let Some(answer) = answer {
            patch.verification = Some(seal(answer).await?);
        }
        self.store
            .update_client(tenant, id, &patch, Timestamp::now(), &client_event("client.updated"))
            .await
            .map_err(ServiceError::not_found_as("client"))
    }

    /// Archives the client (`client.deleted`); what references it keeps showing it.
    pub async fn archive_client(&self, tenant: &Tenant, id: &str) -> ServiceResult<Client> {
        self.store
            .archive_client(tenant, id, Timestamp::now(), &client_event("client.deleted"))
            .await
            .map_err(ServiceError::not_found_as("client"))
    }
}

/// The verification kept for `answer`: its kind and the slow hash of its normalized form.
async fn seal(answer: Option<VerificationAnswer>) -> ServiceResult<Option<Verification>> {
    let Some(answer) = answer else { return Ok(None) };
    let hash = slow_hash(answer.secret().to_owned()).await?;
    Ok(Some(Verification { kind: answer.kind, hash }))
}
