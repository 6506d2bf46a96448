// GoogleAdsFailure entries for GAQL problems, shaped like Google's.
//
// Messages copy the wording of real API responses where one was available
// ("Unrecognized field in the query: 'x'.", "Cannot select or filter on the
// following metrics: ...", "Invalid date literal supplied for DURING
// operator: X.", "The following field must be present in SELECT clause:
// 'x'.", "Expects filters on the following field to limit a finite date
// range: 'x'."); the rest follow the same style. Query errors point at the
// request's `query` field (location) and carry the offending token (trigger).

import { GoogleAdsFailureError, type GoogleAdsErrorEntry } from "../contract";

export function queryErrorEntry(code: string, message: string, trigger?: string): GoogleAdsErrorEntry {
  return {
    errorCode: { queryError: code },
    message,
    ...(trigger !== undefined ? { trigger: { stringValue: trigger } } : {}),
    location: { fieldPathElements: [{ fieldName: "query" }] },
  };
}

export function queryError(code: string, message: string, trigger?: string): GoogleAdsFailureError {
  return new GoogleAdsFailureError([queryErrorEntry(code, message, trigger)]);
}

export function categoryError(category: string, code: string, message: string, trigger?: string): GoogleAdsFailureError {
  return new GoogleAdsFailureError([
    {
      errorCode: { [category]: code },
      message,
      ...(trigger !== undefined ? { trigger: { stringValue: trigger } } : {}),
      location: { fieldPathElements: [{ fieldName: "query" }] },
    },
  ]);
}

export function requestError(code: string, message: string, field: string): GoogleAdsFailureError {
  return new GoogleAdsFailureError([{ errorCode: { requestError: code }, message, location: { fieldPathElements: [{ fieldName: field }] } }]);
}
