/**
 * The type model: every type of the contract's section 2 plus the result records of 2.5 and 2.6,
 * and the questions every room asks of it (a type by name, a complex type with its bases folded in,
 * value types, the fields of an in-band rejection, extension). It is the single source of truth for
 * types: the XSDs in schemas/ are generated from it, the shape checks walk it, the mock serialises
 * its data with it and the equivalence check reads values in their XSD value space with it.
 *
 * Its parts: what a type is, ./model-shapes.ts; the types themselves and the readings where the
 * contract is silent, ambiguous or says "not shown", ./model-table.ts (data). The shapes are
 * re-exported here: every room imports the model from this one file.
 */
import { ANY_TYPE_NOTES, TYPES } from './model-table.js';
import { isSimple, type ComplexType, type EffectiveType, type NamedType, type TypeRef } from './model-shapes.js';

export { ANY_TYPE_NOTES };
export { SIMPLE_TYPES, isSimple } from './model-shapes.js';
export type {
  AttributeDef,
  ComplexType,
  EffectiveType,
  ElementField,
  EnumType,
  Field,
  NamedType,
  OpenField,
  SimpleType,
  TypeRef,
} from './model-shapes.js';

export const MODEL: ReadonlyMap<string, NamedType> = new Map(TYPES.map((t) => [t.name, t]));

/** The named type, or a thrown error naming it (a typo in the model is a programming error). */
export function namedType(name: string): NamedType {
  const t = MODEL.get(name);
  if (!t) throw new Error(`type model has no type named ${name}`);
  return t;
}

export function complexType(name: string): ComplexType {
  const t = namedType(name);
  if (t.kind !== 'complex') throw new Error(`type ${name} is not a complex type`);
  return t;
}

const effectiveCache = new Map<string, EffectiveType>();

/** A complex type with its base types folded in: base fields first, then the extension's. */
export function effective(name: string): EffectiveType {
  let e = effectiveCache.get(name);
  if (e) return e;
  const t = complexType(name);
  const b: EffectiveType = t.base ? effective(t.base) : { fields: [], attributes: [] };
  e = {
    fields: [...b.fields, ...t.fields],
    attributes: [...b.attributes, ...t.attributes],
    text: t.text ?? b.text,
    openContent: t.openContent ?? b.openContent,
    anyAttribute: t.anyAttribute ?? b.anyAttribute,
    orText: t.orText ?? b.orText,
    rejection: t.rejection ?? b.rejection,
  };
  effectiveCache.set(name, e);
  return e;
}

/** True when the type's element content has a "not shown" region (its known fields may come in any place). */
export function hasOpenFields(name: string): boolean {
  return effective(name).fields.some((f) => f.kind === 'open');
}

/**
 * The fields that make up an in-band rejection of a type (BaseResult's Error and ErrorAttributes):
 * the own fields of the base that declares `rejection`; empty for a type without one.
 */
export function rejectionFields(typeName: string): string[] {
  for (let t: string | undefined = typeName; t; ) {
    const nt = MODEL.get(t);
    if (nt?.kind !== 'complex') return [];
    if (nt.rejection !== undefined) return nt.fields.flatMap((f) => (f.kind === 'element' ? [f.name] : []));
    t = nt.base;
  }
  return [];
}

/** True where the content of an element of this type is not shown at all: any content, nil included. */
export function contentNotShown(t: TypeRef): boolean {
  return t === 'anyType';
}

/** Value types: always written by the serializer (never left out as a null is). */
export function isValueType(t: TypeRef): boolean {
  if (t === 'string' || t === 'anyType' || t === 'intList') return false;
  if (isSimple(t)) return true;
  return MODEL.get(t)?.kind === 'enum';
}

/** True when the type is `base` or extends it (through any number of extensions). */
export function extendsType(typeName: string, base: string): boolean {
  for (let t: string | undefined = typeName; t; ) {
    if (t === base) return true;
    const nt = MODEL.get(t);
    t = nt?.kind === 'complex' ? nt.base : undefined;
  }
  return false;
}

export function allTypes(): NamedType[] {
  return TYPES;
}
