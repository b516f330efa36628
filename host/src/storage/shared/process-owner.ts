import { processOwner } from '@cerebro/sdk';

/** This process as an owner of shared rows: the sdk's, so the host and its plugins name this process the same way. */
export const PROCESS_OWNER = processOwner();
export { ownerIsGone } from '@cerebro/sdk';
