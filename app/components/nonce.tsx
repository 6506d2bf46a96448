import { createContext, useContext } from "react";

// The per-response CSP nonce, provided by entry.server on the server and read
// back from the document on the client, so hydration sees the same value.
const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
