// Compiled by `tsc` (never run): the client's types say what the API takes and answers.
import { createLajan, LajanError, type Schemas } from "../src/index.js";

export async function typed(): Promise<void> {
  const lajan = createLajan({ baseUrl: "http://127.0.0.1:8080", apiKey: "sk_test_..." });
  const { data: client } = await lajan.POST("/v1/clients", { body: { firstName: "Marie", lastName: "Jean" } });
  const id: string = client!.id;
  const { data: payout } = await lajan.POST("/v1/payouts", {
    body: { walletAccountId: "G...", assetAmount: "125.50", assetCode: "USDC" },
  });
  const amount: string = payout!.assetAmount;
  for await (const item of lajan.paginate("/v1/clients", { params: { query: { search: "jean", limit: 100 } } })) {
    const first: string = item.firstName;
    void first;
  }
  const batch: Schemas["DisbursementView"] = await lajan.createDisbursementFromCsv("walletAccountId,assetAmount\n", {
    name: "March",
    assetCode: "USDC",
  });
  try {
    // @ts-expect-error an amount is a decimal string, never a number
    await lajan.POST("/v1/payouts", { body: { walletAccountId: "G...", assetAmount: 125.5, assetCode: "USDC" } });
  } catch (e) {
    if (e instanceof LajanError) console.log(e.statusCode, e.code, e.details, e.requestId);
  }
  void id;
  void amount;
  void batch;
}
