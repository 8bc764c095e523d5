"""Contains all the data models used in inputs/outputs"""

from .actor_kind import ActorKind
from .actor_view import ActorView
from .asset_list import AssetList
from .asset_view import AssetView
from .asset_view_code import AssetViewCode
from .asset_view_kind import AssetViewKind
from .attempt_view import AttemptView
from .balance_list import BalanceList
from .balance_view import BalanceView
from .client_contact import ClientContact
from .client_credit_balance import ClientCreditBalance
from .client_list import ClientList
from .client_summary import ClientSummary
from .client_view import ClientView
from .create_client import CreateClient
from .create_disbursement import CreateDisbursement
from .create_disbursement_item import CreateDisbursementItem
from .create_invoice import CreateInvoice
from .create_payment_link import CreatePaymentLink
from .create_payout import CreatePayout
from .create_webhook_endpoint import CreateWebhookEndpoint
from .created_webhook_endpoint_view import CreatedWebhookEndpointView
from .credit_balance_view import CreditBalanceView
from .credit_line_body import CreditLineBody
from .credit_line_view import CreditLineView
from .credit_note_list import CreditNoteList
from .credit_note_view import CreditNoteView
from .credit_transaction_list import CreditTransactionList
from .credit_transaction_view import CreditTransactionView
from .currency import Currency
from .deleted import Deleted
from .delivery_attempt_view import DeliveryAttemptView
from .delivery_detail import DeliveryDetail
from .delivery_list import DeliveryList
from .delivery_view import DeliveryView
from .delivery_view_event_type import DeliveryViewEventType
from .delivery_view_status import DeliveryViewStatus
from .disbursement_item_list import DisbursementItemList
from .disbursement_item_view import DisbursementItemView
from .disbursement_item_view_approval_status_type_1 import (
    DisbursementItemViewApprovalStatusType1,
)
from .disbursement_item_view_approval_status_type_2_type_1 import (
    DisbursementItemViewApprovalStatusType2Type1,
)
from .disbursement_item_view_approval_status_type_3_type_1 import (
    DisbursementItemViewApprovalStatusType3Type1,
)
from .disbursement_item_view_exec_status_type_1 import (
    DisbursementItemViewExecStatusType1,
)
from .disbursement_item_view_exec_status_type_2_type_1 import (
    DisbursementItemViewExecStatusType2Type1,
)
from .disbursement_item_view_exec_status_type_3_type_1 import (
    DisbursementItemViewExecStatusType3Type1,
)
from .disbursement_list import DisbursementList
from .disbursement_view import DisbursementView
from .disbursement_view_source import DisbursementViewSource
from .disbursement_view_status import DisbursementViewStatus
from .error_body import ErrorBody
from .event_list import EventList
from .event_selector import EventSelector
from .event_view import EventView
from .event_view_data import EventViewData
from .event_view_type import EventViewType
from .field_detail import FieldDetail
from .hold_view import HoldView
from .installment_body import InstallmentBody
from .installment_view import InstallmentView
from .intent_state import IntentState
from .intent_state_status import IntentStateStatus
from .invitation_view import InvitationView
from .invited_client_view import InvitedClientView
from .invoice_list import InvoiceList
from .invoice_payment_list import InvoicePaymentList
from .invoice_payment_view import InvoicePaymentView
from .invoice_statement import InvoiceStatement
from .invoice_summary import InvoiceSummary
from .invoice_summary_currency import InvoiceSummaryCurrency
from .invoice_summary_status import InvoiceSummaryStatus
from .invoice_view import InvoiceView
from .invoice_view_currency import InvoiceViewCurrency
from .invoice_view_status import InvoiceViewStatus
from .issue_credit_note import IssueCreditNote
from .item_counts_view import ItemCountsView
from .language import Language
from .line_item_body import LineItemBody
from .line_item_view import LineItemView
from .list_disbursement_items_status import ListDisbursementItemsStatus
from .list_disbursements_status import ListDisbursementsStatus
from .list_events_type import ListEventsType
from .list_invoices_status import ListInvoicesStatus
from .list_messages_channel import ListMessagesChannel
from .list_messages_status import ListMessagesStatus
from .list_payouts_status import ListPayoutsStatus
from .list_payouts_type import ListPayoutsType
from .list_webhook_deliveries_status import ListWebhookDeliveriesStatus
from .memo_type import MemoType
from .message_list import MessageList
from .message_view import MessageView
from .message_view_channel import MessageViewChannel
from .message_view_status import MessageViewStatus
from .pagination_view import PaginationView
from .payment_link_list import PaymentLinkList
from .payment_link_ref import PaymentLinkRef
from .payment_link_view import PaymentLinkView
from .payment_link_view_currency import PaymentLinkViewCurrency
from .payment_link_view_status import PaymentLinkViewStatus
from .payout_client import PayoutClient
from .payout_client_summary import PayoutClientSummary
from .payout_counts_view import PayoutCountsView
from .payout_list import PayoutList
from .payout_summary import PayoutSummary
from .payout_summary_approval_status import PayoutSummaryApprovalStatus
from .payout_summary_exec_status import PayoutSummaryExecStatus
from .payout_summary_type import PayoutSummaryType
from .payout_view import PayoutView
from .payout_view_approval_status import PayoutViewApprovalStatus
from .payout_view_exec_status import PayoutViewExecStatus
from .payout_view_type import PayoutViewType
from .queued_message import QueuedMessage
from .queued_message_channel import QueuedMessageChannel
from .queued_message_status import QueuedMessageStatus
from .recommended_wallet_request import RecommendedWalletRequest
from .recommended_wallet_view import RecommendedWalletView
from .record_payment import RecordPayment
from .recover_deliveries import RecoverDeliveries
from .recovered import Recovered
from .reject_disbursement import RejectDisbursement
from .reject_payout import RejectPayout
from .remind_at import RemindAt
from .reminder_view import ReminderView
from .reminders_request import RemindersRequest
from .reminders_sent import RemindersSent
from .reminders_view import RemindersView
from .reverse_payment import ReversePayment
from .sandbox_payment_view import SandboxPaymentView
from .send_channel import SendChannel
from .send_invoice import SendInvoice
from .send_result import SendResult
from .send_result_status import SendResultStatus
from .settings_change_view import SettingsChangeView
from .settings_change_view_changes import SettingsChangeViewChanges
from .settings_change_view_previous import SettingsChangeViewPrevious
from .settings_view import SettingsView
from .settings_view_default_currency import SettingsViewDefaultCurrency
from .simulate_payment import SimulatePayment
from .statement_line_view import StatementLineView
from .top_up import TopUp
from .update_client import UpdateClient
from .update_invoice import UpdateInvoice
from .update_settings import UpdateSettings
from .update_webhook_endpoint import UpdateWebhookEndpoint
from .verification_request import VerificationRequest
from .verification_view import VerificationView
from .void_invoice import VoidInvoice
from .void_result import VoidResult
from .void_result_status import VoidResultStatus
from .webhook_endpoint_list import WebhookEndpointList
from .webhook_endpoint_view import WebhookEndpointView

__all__ = (
    "ActorKind",
    "ActorView",
    "AssetList",
    "AssetView",
    "AssetViewCode",
    "AssetViewKind",
    "AttemptView",
    "BalanceList",
    "BalanceView",
    "ClientContact",
    "ClientCreditBalance",
    "ClientList",
    "ClientSummary",
    "ClientView",
    "CreateClient",
    "CreateDisbursement",
    "CreateDisbursementItem",
    "CreateInvoice",
    "CreatePaymentLink",
    "CreatePayout",
    "CreateWebhookEndpoint",
    "CreatedWebhookEndpointView",
    "CreditBalanceView",
    "CreditLineBody",
    "CreditLineView",
    "CreditNoteList",
    "CreditNoteView",
    "CreditTransactionList",
    "CreditTransactionView",
    "Currency",
    "Deleted",
    "DeliveryAttemptView",
    "DeliveryDetail",
    "DeliveryList",
    "DeliveryView",
    "DeliveryViewEventType",
    "DeliveryViewStatus",
    "DisbursementItemList",
    "DisbursementItemView",
    "DisbursementItemViewApprovalStatusType1",
    "DisbursementItemViewApprovalStatusType2Type1",
    "DisbursementItemViewApprovalStatusType3Type1",
    "DisbursementItemViewExecStatusType1",
    "DisbursementItemViewExecStatusType2Type1",
    "DisbursementItemViewExecStatusType3Type1",
    "DisbursementList",
    "DisbursementView",
    "DisbursementViewSource",
    "DisbursementViewStatus",
    "ErrorBody",
    "EventList",
    "EventSelector",
    "EventView",
    "EventViewData",
    "EventViewType",
    "FieldDetail",
    "HoldView",
    "InstallmentBody",
    "InstallmentView",
    "IntentState",
    "IntentStateStatus",
    "InvitationView",
    "InvitedClientView",
    "InvoiceList",
    "InvoicePaymentList",
    "InvoicePaymentView",
    "InvoiceStatement",
    "InvoiceSummary",
    "InvoiceSummaryCurrency",
    "InvoiceSummaryStatus",
    "InvoiceView",
    "InvoiceViewCurrency",
    "InvoiceViewStatus",
    "IssueCreditNote",
    "ItemCountsView",
    "Language",
    "LineItemBody",
    "LineItemView",
    "ListDisbursementItemsStatus",
    "ListDisbursementsStatus",
    "ListEventsType",
    "ListInvoicesStatus",
    "ListMessagesChannel",
    "ListMessagesStatus",
    "ListPayoutsStatus",
    "ListPayoutsType",
    "ListWebhookDeliveriesStatus",
    "MemoType",
    "MessageList",
    "MessageView",
    "MessageViewChannel",
    "MessageViewStatus",
    "PaginationView",
    "PaymentLinkList",
    "PaymentLinkRef",
    "PaymentLinkView",
    "PaymentLinkViewCurrency",
    "PaymentLinkViewStatus",
    "PayoutClient",
    "PayoutClientSummary",
    "PayoutCountsView",
    "PayoutList",
    "PayoutSummary",
    "PayoutSummaryApprovalStatus",
    "PayoutSummaryExecStatus",
    "PayoutSummaryType",
    "PayoutView",
    "PayoutViewApprovalStatus",
    "PayoutViewExecStatus",
    "PayoutViewType",
    "QueuedMessage",
    "QueuedMessageChannel",
    "QueuedMessageStatus",
    "RecommendedWalletRequest",
    "RecommendedWalletView",
    "RecordPayment",
    "RecoverDeliveries",
    "Recovered",
    "RejectDisbursement",
    "RejectPayout",
    "RemindAt",
    "ReminderView",
    "RemindersRequest",
    "RemindersSent",
    "RemindersView",
    "ReversePayment",
    "SandboxPaymentView",
    "SendChannel",
    "SendInvoice",
    "SendResult",
    "SendResultStatus",
    "SettingsChangeView",
    "SettingsChangeViewChanges",
    "SettingsChangeViewPrevious",
    "SettingsView",
    "SettingsViewDefaultCurrency",
    "SimulatePayment",
    "StatementLineView",
    "TopUp",
    "UpdateClient",
    "UpdateInvoice",
    "UpdateSettings",
    "UpdateWebhookEndpoint",
    "VerificationRequest",
    "VerificationView",
    "VoidInvoice",
    "VoidResult",
    "VoidResultStatus",
    "WebhookEndpointList",
    "WebhookEndpointView",
)
