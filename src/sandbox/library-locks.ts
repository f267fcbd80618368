// Libraries are shared by every schema in a sandbox process and frozen with `harden`, but some
// keep global settings in closures that freezing cannot reach: a call can still change what
// every other schema's calls compute, or route their data through a function of its own. For
// the default allowlist's libraries, those settings are locked here, before the library is
// handed out. (A library a maintainer adds to the allowlist gets `harden` only; see README.)

import { ethersGetUrl } from './bridge-fetch.js';

type Lock = (library: unknown) => unknown;

/** Thrown to handler code, which expects the TypeError a frozen object throws; the core reports it as SEC102. */
class LockedSettingError extends TypeError {
  constructor(what: string) {
    super(`${what} changes a setting shared with other schemas; it is read-only in handlers`);
  }
}

/**
 * ethers v6 offers its own locks: the crypto function registry and FetchRequest's config. Its
 * requests go through the core's bridge (decision R12), registered before the config is locked.
 * Its default AbiCoder is made on first use and shared by every caller, out of reach of the
 * exports `harden` walks: made and frozen here, before any schema can redefine its methods.
 */
function lockEthers(ethers: unknown): unknown {
  const library = ethers as {
    lock?: () => void;
    FetchRequest?: { lockConfig?: () => void; registerGetUrl?: (getUrl: typeof ethersGetUrl) => void };
    AbiCoder?: { defaultAbiCoder?: () => unknown };
    Network?: { from?: (network: string) => unknown };
  };
  library.FetchRequest?.registerGetUrl?.(ethersGetUrl);
  library.lock?.();
  library.FetchRequest?.lockConfig?.();
  harden(library.AbiCoder?.defaultAbiCoder?.());
  // Its common networks are registered on the first Network.from: now, so that no schema's
  // Network.register can take one of their names or chain ids first.
  library.Network?.from?.('mainnet');
  return ethers;
}

/**
 * moment keeps its global locale, locale registry and relative-time settings in closures. The
 * handed-out moment is a stand-in that creates moments the same way and reads every setting,
 * but refuses to change one.
 */
function lockMoment(moment: unknown): unknown {
  const real = moment as ((...args: unknown[]) => unknown) & Record<string, (...args: unknown[]) => unknown>;
  const readOnly = (name: string, reads: (args: unknown[]) => boolean) =>
    function (this: unknown, ...args: unknown[]): unknown {
      if (!reads(args)) throw new LockedSettingError(`moment.${name}(...)`);
      return real[name]?.(...args);
    };
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    return real(...args);
  };
  for (const key of Object.keys(real)) (standIn as unknown as Record<string, unknown>)[key] = real[key];
  Object.assign(standIn, {
    locale: readOnly('locale', (args) => args.length === 0),
    defineLocale: readOnly('defineLocale', () => false),
    updateLocale: readOnly('updateLocale', () => false),
    relativeTimeRounding: readOnly('relativeTimeRounding', (args) => args[0] === undefined),
    relativeTimeThreshold: readOnly('relativeTimeThreshold', (args) => args[1] === undefined),
    // The shared locale object itself: readable, never writable.
    localeData: (...args: unknown[]) => readOnlyView(real.localeData?.(...args)),
  });
  return standIn;
}

function readOnlyView(target: unknown): unknown {
  if (typeof target !== 'object' || target === null) return target;
  const refuse = () => {
    throw new LockedSettingError('changing moment locale data');
  };
  return new Proxy(target, { set: refuse, defineProperty: refuse, deleteProperty: refuse, setPrototypeOf: refuse });
}

const LOCKS: ReadonlyMap<string, Lock> = new Map([
  ['ethers', lockEthers],
  ['moment', lockMoment],
]);

/** The library as handlers get it: with its shared settings locked where we know how. */
export function lockLibrary(name: string, library: unknown): unknown {
  return LOCKS.get(name)?.(library) ?? library;
}
