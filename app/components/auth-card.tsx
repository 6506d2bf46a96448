import type { ReactNode } from "react";
import { Link } from "react-router";
import { errorAria, FieldMessage } from "./forms";

// The signed-out pages' pieces (confirming an address, resetting a password): the sign-in screen's look.

export const authButtonClass = "w-full rounded-lg bg-gray-900 px-4 py-2.5 font-semibold text-white hover:bg-gray-800 disabled:opacity-60";

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-blue-50 to-indigo-100 p-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-xl">
        <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
        {children}
        <p className="mt-6 text-center text-sm">
          <Link to="/login" className="font-semibold text-blue-600 hover:underline">
            Back to sign in
          </Link>
        </p>
      </div>
    </main>
  );
}

/** A refusal no field owns (an expired link, too many attempts), above the form. */
export function AuthAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

type ConformField = { id: string; name: string; errorId: string; errors?: string[]; initialValue?: unknown };

/** One labelled input of a Conform form, its message below it (and a hint, if any). */
export function AuthInput(props: { field: ConformField; label: string; type: "email" | "password"; autoComplete: string; hint?: string }) {
  const { field } = props;
  const hintId = props.hint ? `${field.id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium text-gray-700">
        {props.label}
      </label>
      <input
        id={field.id}
        name={field.name}
        type={props.type}
        autoComplete={props.autoComplete}
        defaultValue={props.type === "email" && typeof field.initialValue === "string" ? field.initialValue : undefined}
        required
        {...errorAria(field, hintId)}
        className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500 aria-[invalid]:border-red-500"
      />
      {props.hint ? (
        <p id={hintId} className="mt-1 text-xs text-gray-500">
          {props.hint}
        </p>
      ) : null}
      <FieldMessage field={field} className="mt-1 text-sm text-red-600" />
    </div>
  );
}
