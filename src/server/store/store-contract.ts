/**
 * The Store's promises (store.ts) as vitest tests, for every implementation: the embedded SQLite store runs
 * them in the unit project (store-contract.test.ts), the PostgreSQL store in the sandbox project. Each test
 * opens a fresh, empty store; the parallel cases start their calls at once, as instances sharing one
 * database would, and a store must keep every balance and every "once" under them.
 */
import { afterEach, describe } from 'vitest';
import type { Store } from './store.ts';
import { describeAccountsContract, describeUploadsContract } from './store-contract-accounts.ts';
import type { ContractStores } from './store-contract-fixtures.ts';
import { describeLedgerContract } from './store-contract-ledger.ts';
import { describeRetentionContract } from './store-contract-retention.ts';
import { describeTryOnsContract } from './store-contract-tryons.ts';

/**
 * States the Store contract as tests under `name`: `open` gives a fresh, empty store for one test and
 * `close` ends it (after the test, whatever its outcome).
 */
export function describeStoreContract(
  name: string,
  open: () => Promise<Store>,
  close: (store: Store) => Promise<void>,
): void {
  const opened: Store[] = [];
  const stores: ContractStores = {
    async open() {
      const store = await open();
      opened.push(store);
      return store;
    },
  };

  describe(`the Store contract: ${name}`, () => {
    afterEach(async () => {
      for (const store of opened.splice(0)) await close(store);
    });

    describeAccountsContract(stores);
    describeLedgerContract(stores);
    describeUploadsContract(stores);
    describeTryOnsContract(stores);
    describeRetentionContract(stores);
  });
}
